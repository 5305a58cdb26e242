/* pngdark: the dark pixels of a PNG (every channel below 200: data, labels, text; not the light
 * grid) and those of them on its outermost 2 pixels, printed "N B" (tests/claims/layout.sh).
 * gnuplot's pixel table did this at 1.6 s a 1280 x 720 figure; this reads it in milliseconds. */
#include <png.h>
#include <stdio.h>
#include <stdlib.h>

int main(int argc, char **argv)
{
    png_image im = {.version = PNG_IMAGE_VERSION};
    if (argc != 2 || !png_image_begin_read_from_file(&im, argv[1])) {
        fprintf(stderr, "pngdark: cannot read '%s' as a PNG\n", argc > 1 ? argv[1] : "");
        return 2;
    }
    im.format = PNG_FORMAT_RGB;   /* composed on white where the file has alpha */
    png_bytep px = malloc(PNG_IMAGE_SIZE(im));
    png_color white = {255, 255, 255};
    if (!px || !png_image_finish_read(&im, &white, px, 0, NULL)) {
        fprintf(stderr, "pngdark: cannot decode '%s'\n", argv[1]);
        return 2;
    }
    long n = 0, b = 0;
    for (png_uint_32 y = 0; y < im.height; y++)
        for (png_uint_32 x = 0; x < im.width; x++) {
            png_bytep p = px + 3 * ((size_t)y * im.width + x);
            if (p[0] < 200 && p[1] < 200 && p[2] < 200) {
                n++;
                b += x < 2 || y < 2 || x + 2 >= im.width || y + 2 >= im.height;
            }
        }
    printf("%ld %ld\n", n, b);
    free(px);
    return 0;
}

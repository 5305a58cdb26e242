/* test_cli.c: the one flag parser's pieces: numbers in decimal notation only (the whole text),
 * the early scan of one flag in both forms, and messages with untrusted bytes escaped. */
#include "check.h"
#include "base/cli.h"
#include <float.h>
#include <string.h>

int main(void)
{
    struct { const char *text; int ok; double value; } nums[] = {
        {"0.1", 1, 0.1}, {"-2", 1, -2}, {"+3e-4", 1, 3e-4}, {".5", 1, 0.5}, {"1.", 1, 1.0}, {"2E3", 1, 2e3},
        {"0001.25", 1, 1.25}, {"1e-310", 1, 1e-310}, {" 0.1", 0, 0}, {"0.1 ", 0, 0}, {"0x1p-3", 0, 0},
        {"0x10", 0, 0}, {"inf", 0, 0}, {"-Infinity", 0, 0}, {"nan", 0, 0}, {"1e400", 0, 0}, {"1e-400", 0, 0},
        {"", 0, 0}, {".", 0, 0}, {"1e", 0, 0}, {"1e+", 0, 0}, {"--1", 0, 0}, {"1,5", 0, 0}, {"1\n", 0, 0},
    };
    for (size_t i = 0; i < sizeof nums / sizeof nums[0]; i++) {
        double v = -99;
        int rc = cli_number(nums[i].text, &v);
        char shown[64];
        cli_escape(nums[i].text, shown, sizeof shown);
        if (nums[i].ok)
            check(rc == 0 && v == nums[i].value, "number '%s' is read as %g", shown, v);
        else
            check(rc != 0 && v == -99, "number '%s' is refused: %s", shown, cli_number_error(nums[i].text, &v));
    }
    double v;
    check(strstr(cli_number_error("1e-400", &v), "underflows") != NULL, "1e-400 is said to underflow");
    check(strstr(cli_number_error("1e400", &v), "overflows") != NULL, "1e400 is said to overflow");
    check(1e-310 < DBL_MIN && cli_number_error("-1e-310", &v) == NULL, "a subnormal is a finite number");

    char *argv1[] = {"pluck", "--reference", "--challenge=/a.json", "--wav", "x.wav", NULL};
    const char *got = cli_peek("pluck", 5, argv1, "challenge");
    check(got && strcmp(got, "/a.json") == 0, "cli_peek reads --challenge=FILE (%s)", got ? got : "NULL");
    char *argv2[] = {"pluck", "--challenge", "/b.json", "--reference", NULL};
    got = cli_peek("pluck", 4, argv2, "challenge");
    check(got && strcmp(got, "/b.json") == 0, "cli_peek reads --challenge FILE (%s)", got ? got : "NULL");
    char *argv3[] = {"pluck", "--challenges=/c.json", "--", "--challenge=/d.json", NULL};
    check(cli_peek("pluck", 4, argv3, "challenge") == NULL, "cli_peek matches whole names and stops at --");

    char buf[64];
    cli_escape("a\033[2Jb\tc\x9b" "d", buf, sizeof buf);
    check(strcmp(buf, "a\\x1b[2Jb\\x09c\\x9bd") == 0, "control bytes are escaped: %s", buf);
    cli_escape("x_b/L = 0.1 \xce\xbc_s", buf, sizeof buf);
    check(strcmp(buf, "x_b/L = 0.1 \xce\xbc_s") == 0, "printable UTF-8 is kept: %s", buf);
    cli_escape("\xc2\x9b\xed\xa0\x80", buf, sizeof buf);
    check(strcmp(buf, "\\xc2\\x9b\\xed\\xa0\\x80") == 0, "a C1 control and a surrogate in UTF-8 are escaped: %s", buf);
    char small[12];
    cli_escape("0123456789abcdef", small, sizeof small);
    check(strcmp(small, "01234567...") == 0, "a long text is cut with ...: %s", small);
    return check_done();
}

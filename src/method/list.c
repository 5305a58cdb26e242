/* list.c: the method table. Adding a method takes its file in src/method/, its extern in method.h
 * and one line here; the lessons that loop over method_all and their figures (which take their
 * series from the data) then show it. */
#include "method.h"
#include <string.h>

const method *const method_all[] = {
    &method_euler, &method_backward_euler, &method_trapezoid, &method_heun, &method_rk4, &method_leapfrog, NULL,
};

const method *method_find(const char *name)
{
    for (int i = 0; method_all[i]; i++)
        if (strcmp(method_all[i]->name, name) == 0)
            return method_all[i];
    return NULL;
}

const char *method_names(void)
{
    static char buf[256];
    if (!buf[0])
        for (int i = 0; method_all[i]; i++) {
            if (i)
                strcat(buf, "|");
            strcat(buf, method_all[i]->name);
        }
    return buf;
}

/* list.c: the built-in methods. A built-in method is its file in src/method/, its extern in
 * method.h and one line here; a student's method is a tableau file that a program's method set
 * loads (method/set.h). */
#include "method/method.h"
#include <stddef.h>

const method *const method_builtin[] = {
    &method_euler,
    &method_backward_euler,
    &method_trapezoid,
    &method_heun,
    &method_rk4,
    &method_leapfrog,
    NULL,
};

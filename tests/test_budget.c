/* test_budget.c: the shared estimate/cap/progress module: the thinning stride keeps a data file
 * at about BUDGET_ROWS rows, byte counts read as words, and work within the caps is accepted
 * (a refusal exits, so the claims test budget.sh checks those). */
#include "base/budget.h"
#include "check.h"
#include <string.h>

int main(void)
{
    check(budget_stride(0) == 1 && budget_stride(BUDGET_ROWS) == 1, "stride 1 up to BUDGET_ROWS steps");
    long ns[] = {BUDGET_ROWS + 1, 3 * BUDGET_ROWS, 123456789L, 1000000000L};
    for (size_t i = 0; i < sizeof ns / sizeof ns[0]; i++) {
        long n = ns[i], s = budget_stride(n), rows = n / s + 2;   /* every s-th of 0..n, and the last */
        check(s > 1 && rows <= BUDGET_ROWS + 2 && n / (s - 1) + 1 > BUDGET_ROWS,
              "n = %ld: stride %ld keeps %ld rows (at most %ld, and the smallest stride that does)", n, s, rows,
              BUDGET_ROWS + 2);
    }
    char b[32];
    budget_bytes_text(b, sizeof b, 1.9e9);
    check(strcmp(b, "1.9 GB") == 0, "1.9e9 B reads '%s'", b);
    budget_bytes_text(b, sizeof b, 384080);
    check(strcmp(b, "384 kB") == 0, "384080 B reads '%s'", b);
    budget bg;
    budget_init(&bg, "test", "steps", 100, "--n");
    check(strstr(bg.help, "100 steps, 1 GB written, 1 GB of memory") != NULL, "--allow-long's help names the caps: %s",
          bg.help);
    failure why;
    bg.work = 101;
    int status = budget_check(&bg, &why);
    check(status == 2 && strstr(why.line, "test: --n ask for an estimated 101 steps") == why.line &&
          strstr(why.line, "--allow-long") != NULL, "work above the cap comes back as status %d: %s", status, why.line);
    bg.work = 100, bg.bytes_out = 1e9, bg.bytes_mem = 1e9;
    check(budget_check(&bg, &why) == 0, "work at the caps is accepted");
    for (int k = 0; k < 100; k++)
        budget_tick(&bg.meter, 1.0);
    budget_finish(&bg.meter);
    progress one, two;
    budget_meter(&one, "one", "steps", 10, false);
    budget_meter(&two, "two", "steps", 10, false);
    budget_tick(&one, 3.0);
    budget_tick(NULL, 1.0);
    check(one.done == 3.0 && two.done == 0.0, "progress is an object: 3 ticks on one leave two at %g", two.done);
    check(1, "ticks and finish on quick work print nothing and return");
    return check_done();
}

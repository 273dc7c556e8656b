/* An n-queens solver in C, to cross-check against cpqueens.
 *
 *   cc -O2 -o queens examples/queens.c
 *   ./queens 8            every solution, one per line: "Solution 1: 1 5 8 6 3 7 2 4"
 *   ./queens 8 --count    only the number of solutions: "92"
 *
 * Columns are 1-based, as people write them; cpqueens notices. Compiled with
 * -DFORGET_DIAGONAL it forgets one diagonal check, to see a cross-check fail.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int n;
static int column[32];
static long found;
static int count_only;

static int safe(int row, int col)
{
    for (int r = 0; r < row; r++) {
        int c = column[r];
        if (c == col || c - col == row - r)
            return 0;
#ifndef FORGET_DIAGONAL
        if (col - c == row - r)
            return 0;
#endif
    }
    return 1;
}

static void place(int row)
{
    if (row == n) {
        found++;
        if (!count_only) {
            printf("Solution %ld:", found);
            for (int r = 0; r < n; r++)
                printf(" %d", column[r] + 1);
            printf("\n");
        }
        return;
    }
    for (int col = 0; col < n; col++) {
        if (safe(row, col)) {
            column[row] = col;
            place(row + 1);
        }
    }
}

int main(int argc, char **argv)
{
    if (argc < 2 || (n = atoi(argv[1])) < 1 || n > 32) {
        fprintf(stderr, "usage: %s N [--count]   (1 <= N <= 32)\n", argv[0]);
        return 2;
    }
    count_only = argc > 2 && strcmp(argv[2], "--count") == 0;
    place(0);
    if (count_only)
        printf("%ld\n", found);
    else
        printf("Total: %ld\n", found);
    return 0;
}

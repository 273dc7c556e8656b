/* Reference n-queens counter: single-threaded bitmask backtracking with mirror symmetry.
 *
 * Build and run:  gcc -O3 -o reference_count reference_count.c && ./reference_count 16
 * Prints "<n> <solutions> <seconds>". The first row's queen only visits the left half
 * of the board; every solution found there is counted twice (its mirror image starts
 * in the right half). On odd boards the middle column of the first row is searched
 * too, restricting the second row to the left half, which halves it again exactly.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

static uint64_t complete(int n, uint32_t cols, uint32_t left, uint32_t right, int row,
                         uint32_t row_mask) {
    uint32_t full = (n == 32) ? 0xFFFFFFFFu : ((1u << n) - 1);
    uint32_t avail[33], c[33], l[33], r[33];
    uint64_t found = 0;
    int base = row;
    c[row] = cols;
    l[row] = left;
    r[row] = right;
    avail[row] = row_mask & ~(cols | left | right);
    while (row >= base) {
        uint32_t free = avail[row];
        if (free == 0) {
            row--;
            continue;
        }
        uint32_t bit = free & -free;
        avail[row] = free ^ bit;
        if (row == n - 1) {
            found++;
            continue;
        }
        c[row + 1] = c[row] | bit;
        l[row + 1] = (l[row] | bit) << 1;
        r[row + 1] = (r[row] | bit) >> 1;
        row++;
        avail[row] = full & ~(c[row] | l[row] | r[row]);
    }
    return found;
}

static uint64_t count(int n) {
    if (n == 1) return 1;
    uint32_t full = (1u << n) - 1;
    uint64_t total = 0;
    for (int col = 0; col < n / 2; col++) {
        uint32_t bit = 1u << col;
        total += 2 * complete(n, bit, bit << 1, bit >> 1, 1, full);
    }
    if (n % 2 == 1) {
        /* Queen in the middle column: the second row's queen sits left or right of it;
         * the left half counts for both. */
        uint32_t bit = 1u << (n / 2);
        uint32_t left_half = bit - 1;
        total += 2 * complete(n, bit, bit << 1, bit >> 1, 1, left_half);
    }
    return total;
}

int main(int argc, char **argv) {
    if (argc != 2) {
        fprintf(stderr, "usage: %s N   (1 <= N <= 31)\n", argv[0]);
        return 2;
    }
    int n = atoi(argv[1]);
    if (n < 1 || n > 31) {
        fprintf(stderr, "N must be between 1 and 31, got %s\n", argv[1]);
        return 2;
    }
    struct timespec start, end;
    clock_gettime(CLOCK_MONOTONIC, &start);
    uint64_t total = count(n);
    clock_gettime(CLOCK_MONOTONIC, &end);
    double seconds = (end.tv_sec - start.tv_sec) + (end.tv_nsec - start.tv_nsec) / 1e9;
    printf("%d %llu %.6f\n", n, (unsigned long long)total, seconds);
    return 0;
}

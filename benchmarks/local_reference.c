/* One solution of n queens, two ways, in plain C: the yardstick of bench_local.py.
 *
 *   gcc -O2 -o local_reference benchmarks/local_reference.c
 *   ./local_reference qs N BITS        QS4 exactly as the qs backend's kernel runs it,
 *                                      BITS the generator's 64-bit start (seed_bits)
 *   ./local_reference construct N      the closed-form construction (n mod 6)
 *
 * Prints "seconds valid restarts checksum" on one line: the time of the method alone (the
 * final check left out; for qs its working arrays included, as the kernel's time
 * includes none of the backend's set-up), 1 when the board is a solution, and the
 * restarts qs made (0 for construct) and the sum of (r + 1) * q[r] modulo 2^64, by which
 * the benchmark sees that C and the kernel found the very same board. A permutation of columns, so rows and columns
 * never conflict; the diagonals are counted in two arrays, so every test is O(1).
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

static double now(void) {
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return t.tv_sec + t.tv_nsec * 1e-9;
}

/* QS4 as cpqueens/solvers/qs/kernels.py runs it on a plain board (no fixed queen, no
   blocked square), step for step: the same splitmix64 generator and multiply-shift
   draw, the same bounds (initial phase 3.08 m tries, the last min(50, m / 4) rows
   left to the final phase, 16 m + 2000 final steps before a restart) and the same
   list of candidates in the final phase. Only the chunking (the kernel returns to
   Python every 2^20 tries) is left out. */
static uint64_t rng;

static uint64_t next_random(void) { /* splitmix64 */
    rng += 0x9E3779B97F4A7C15ULL;
    uint64_t z = rng;
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL;
    return z ^ (z >> 31);
}

static int64_t below(int64_t bound) { /* in [0, bound), bound < 2^32 */
    return (int64_t)(((next_random() >> 32) * (uint64_t)bound) >> 32);
}

#define SUM(r, c) ((r) + (c))
#define DIF(r, c) ((r) - (c) + n - 1)

static int conflicted(const int32_t *q, const int32_t *dn, const int32_t *dp, int64_t n,
                      int64_t k) {
    return dn[SUM(k, q[k])] > 1 || dp[DIF(k, q[k])] > 1;
}

/* The kernel's _try_swap: swap the columns of rows k and j when that lowers the cost;
   returns the change (negative) when made, else 0. */
static int64_t try_swap(int32_t *q, int32_t *dn, int32_t *dp, int64_t n, int64_t k,
                        int64_t j) {
    int64_t ck = q[k], cj = q[j], delta = 0;
    delta -= --dn[SUM(k, ck)] >= 1;
    delta -= --dp[DIF(k, ck)] >= 1;
    delta -= --dn[SUM(j, cj)] >= 1;
    delta -= --dp[DIF(j, cj)] >= 1;
    delta += dn[SUM(k, cj)]++ >= 1;
    delta += dp[DIF(k, cj)]++ >= 1;
    delta += dn[SUM(j, ck)]++ >= 1;
    delta += dp[DIF(j, ck)]++ >= 1;
    if (delta < 0) {
        q[k] = (int32_t)cj;
        q[j] = (int32_t)ck;
        return delta;
    }
    dn[SUM(k, cj)]--; dp[DIF(k, cj)]--; dn[SUM(j, ck)]--; dp[DIF(j, ck)]--;
    dn[SUM(k, ck)]++; dp[DIF(k, ck)]++; dn[SUM(j, cj)]++; dp[DIF(j, cj)]++;
    return 0;
}

/* Returns the number of restarts; q holds the solution. */
static int64_t qs(int32_t *q, int64_t n, uint64_t seed) {
    rng = seed;
    int64_t m = n;
    int64_t last = m > 8 ? (m / 4 < 50 ? m / 4 : 50) : m;
    int64_t initial = (int64_t)(3.08 * (double)m);
    int64_t bound = 16 * m + 2000;
    int32_t *dn = calloc(2 * n, sizeof *dn), *dp = calloc(2 * n, sizeof *dp);
    int32_t *cand = malloc((size_t)(m + 1) * sizeof *cand);
    uint8_t *inlist = calloc(m, 1);
    int64_t restarts = 0;
    for (int64_t k = 0; k < m; k++) q[k] = (int32_t)k;
    for (int placed = 0;; placed = 1) {
        /* Start: take the board off and shuffle it (the first start keeps the identity,
           unless the initial phase reaches no row, as in the kernel). */
        if (placed)
            for (int64_t k = 0; k < m; k++) { dn[SUM(k, q[k])]--; dp[DIF(k, q[k])]--; }
        if (placed || last >= m)
            for (int64_t k = m - 1; k > 0; k--) {
                int64_t j = below(k + 1);
                int32_t c = q[j]; q[j] = q[k]; q[k] = c;
            }
        /* Initial phase. */
        int64_t k = 0, tries = 0, stop = m - last;
        while (k < stop && tries < initial) {
            int64_t j = k + below(m - k);
            int32_t c = q[j]; q[j] = q[k]; q[k] = c;
            tries++;
            if (dn[SUM(k, c)] == 0 && dp[DIF(k, c)] == 0) {
                dn[SUM(k, c)] = 1;
                dp[DIF(k, c)] = 1;
                k++;
            }
        }
        /* The rest, and the list of its conflicted queens. */
        int64_t first = k, cost = 0, ncand = 0;
        for (k = first; k < m; k++) {
            cost += (dn[SUM(k, q[k])] >= 1) + (dp[DIF(k, q[k])] >= 1);
            dn[SUM(k, q[k])]++; dp[DIF(k, q[k])]++;
        }
        for (k = first; k < m; k++) {
            inlist[k] = 0;
            if (conflicted(q, dn, dp, n, k)) { inlist[k] = 1; cand[ncand++] = (int32_t)k; }
        }
        /* Final phase. */
        int64_t pos = 0, steps = 0;
        for (;;) {
            if (ncand == 0) {
                if (cost == 0) break;
                /* The kernel's rescan (not expected): every conflicted queen. */
                for (k = 0; k < m; k++) {
                    inlist[k] = 0;
                    if (conflicted(q, dn, dp, n, k)) { inlist[k] = 1; cand[ncand++] = (int32_t)k; }
                }
                pos = 0;
                continue;
            }
            if (pos >= ncand) pos = 0;
            k = cand[pos];
            if (!conflicted(q, dn, dp, n, k)) {
                inlist[k] = 0;
                cand[pos] = cand[--ncand];
                continue;
            }
            if (steps >= bound || m < 2) break;
            int64_t j = below(m - 1);
            if (j >= k) j++;
            steps++;
            int64_t delta = try_swap(q, dn, dp, n, k, j);
            if (delta < 0) {
                cost += delta;
                if (!inlist[j]) { inlist[j] = 1; cand[ncand++] = (int32_t)j; }
            }
            pos++;
        }
        if (ncand == 0 && cost == 0) break;
        restarts++;
        for (int64_t i = 0; i < ncand; i++) inlist[cand[i]] = 0;
    }
    free(dn); free(dp); free(cand); free(inlist);
    return restarts;
}

/* The closed-form solution (Hoffman, Loessi and Moore 1969), by n mod 6, in the
   usual 1-based wording: the even columns 2, 4, ..., then the odd ones 1, 3, ...;
   for n mod 6 = 2 the odd list is 3, 1, 7, 9, ..., 5; for n mod 6 = 3 the even list
   is 4, 6, ..., 2 and the odd one 5, 7, ..., 1, 3. Here 0-based. */
static void construct(int32_t *q, int32_t n) {
    int32_t k = 0, rest = n % 6;
    if (rest == 3) {
        for (int32_t c = 3; c < n; c += 2) q[k++] = c;
        q[k++] = 1;
        for (int32_t c = 4; c < n; c += 2) q[k++] = c;
        q[k++] = 0;
        q[k++] = 2;
        return;
    }
    for (int32_t c = 1; c < n; c += 2) q[k++] = c;
    if (rest == 2) {
        q[k++] = 2;
        q[k++] = 0;
        for (int32_t c = 6; c < n; c += 2) q[k++] = c;
        q[k++] = 4;
        return;
    }
    for (int32_t c = 0; c < n; c += 2) q[k++] = c;
}

static int valid(const int32_t *q, int32_t n) {
    char *col = calloc((size_t)n, 1), *up = calloc(2 * (size_t)n, 1), *down = calloc(2 * (size_t)n, 1);
    int ok = 1;
    for (int32_t r = 0; r < n && ok; r++) {
        int32_t c = q[r];
        if (c < 0 || c >= n || col[c] || up[r + c] || down[r - c + n - 1]) ok = 0;
        else col[c] = up[r + c] = down[r - c + n - 1] = 1;
    }
    free(col); free(up); free(down);
    return ok;
}

int main(int argc, char **argv) {
    if (argc < 3) {
        fprintf(stderr, "usage: %s qs N SEED | construct N\n", argv[0]);
        return 2;
    }
    int32_t n = (int32_t)atol(argv[2]);
    if (n < 1) {
        fprintf(stderr, "N must be at least 1\n");
        return 2;
    }
    int32_t *q = malloc((size_t)n * sizeof *q);
    double start = now(), seconds;
    int64_t restarts = 0;
    if (strcmp(argv[1], "qs") == 0) {
        uint64_t seed = argc > 3 ? strtoull(argv[3], NULL, 10) : 1;
        restarts = qs(q, n, seed);
    } else {
        construct(q, n);
    }
    seconds = now() - start;
    uint64_t checksum = 0;
    for (int32_t r = 0; r < n; r++) checksum += (uint64_t)(r + 1) * (uint64_t)q[r];
    printf("%.6f %d %lld %llu\n", seconds, valid(q, n), (long long)restarts,
           (unsigned long long)checksum);
    free(q);
    return 0;
}

/* Reference for the exactcover backend: n-queens as exact cover, Algorithm X over bitsets.
 *
 * Build and run:  gcc -O2 -march=native -o exactcover_reference exactcover_reference.c
 *                 ./exactcover_reference [--count] [--rows-only] [--node-limit N] < instances
 *
 * Input: any number of instances, each "n m" followed by m blocked squares "row column"
 * (0-based, 1 <= n <= 64). Output, one line per instance: "<solutions> <nodes> <seconds>",
 * where solutions is 0 or 1 (the search stops at the first one) or, with --count,
 * the number of solutions; -1 when the search stopped at the node limit unfinished.
 * The clock covers the search only, not the reading.
 *
 * --rows-only chooses among the open rows only (the columns become secondary items,
 * as in a row-by-row backtracker that picks its row by fewest options): a measure of
 * what choosing columns too is worth.
 *
 * The search is the backend's (cpqueens/solvers/exactcover/kernels.py), step for step:
 * rows and columns are the primary items, diagonals the secondary ones; every node
 * takes the open row or column with the fewest squares left (ties: rows and columns
 * from the middle out, n/2, n/2 - 1, n/2 + 1, ..., a row before the column of the same
 * index; a row or column with none ends the scan: a dead end), tries its
 * squares lowest index first, and counts one node per queen placed. Placing (r, c)
 * removes from each open row r2 the squares c and c +- |r2 - r|, from each open column
 * c2 the squares r and r +- |c2 - c|, counting what is left of each as it goes.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

typedef uint64_t word;

/* An item's key: its count of options, then its rank in the tie order (below 2^7). */
#define RANK_BITS 7
#define EMPTY (1 << RANK_BITS)
#define NO_ITEM (65 << RANK_BITS)

static word rows[65][64], cols[65][64], used_rows[65], used_cols[65], pending[65];
static int item[65];
static int rank_of[128]; /* rank_of[r] for row r, rank_of[n + c] for column c */

/* Rows and columns from the middle out (n/2, n/2 - 1, n/2 + 1, ...), row before column. */
static void tie_ranks(int n) {
    for (int j = 0; j < n; j++) {
        int index = j % 2 ? n / 2 - (j + 1) / 2 : n / 2 + j / 2;
        rank_of[index] = 2 * j;
        rank_of[n + index] = 2 * j + 1;
    }
}

static int choose_root(int n, int rows_only) {
    int best = NO_ITEM, code = -1;
    for (int r = 0; r < n; r++) {
        int key = __builtin_popcountll(rows[0][r]) << RANK_BITS | rank_of[r];
        if (key < best) best = key, code = r;
    }
    for (int c = 0; c < n && !rows_only; c++) {
        int key = __builtin_popcountll(cols[0][c]) << RANK_BITS | rank_of[n + c];
        if (key < best) best = key, code = n + c;
    }
    if (best < EMPTY) return 0;
    item[0] = code;
    pending[0] = code < n ? rows[0][code] : cols[0][code - n];
    return 1;
}

/* Search from rows[0] and cols[0]; stop at the first solution unless counting.
 * Returns the solutions found, or -1 if node_limit nodes came first. */
static long long search(int n, int count_all, int rows_only, long long node_limit,
                        long long *nodes_out) {
    word full = ~(word)0 >> (64 - n);
    long long nodes = 0, found = 0;
    int depth = 0;
    used_rows[0] = used_cols[0] = 0;
    tie_ranks(n);
    if (!choose_root(n, rows_only)) depth = -1;
    while (depth >= 0) {
        word options = pending[depth];
        if (options == 0) {
            depth--;
            continue;
        }
        word bit = options & (0 - options);
        pending[depth] = options ^ bit;
        int r, c;
        if (item[depth] < n) {
            r = item[depth];
            c = __builtin_ctzll(bit);
        } else {
            r = __builtin_ctzll(bit);
            c = item[depth] - n;
        }
        if (nodes == node_limit) {
            found = -1;
            break;
        }
        nodes++;
        if (depth == n - 1) {
            found++;
            if (!count_all) break;
            continue;
        }
        int child = depth + 1;
        word row_bit = (word)1 << r, column_bit = (word)1 << c;
        word covered_rows = used_rows[depth] | row_bit;
        word covered_cols = used_cols[depth] | column_bit;
        int best = NO_ITEM, chosen = -1;
        for (word rest = full & ~covered_rows; rest; rest &= rest - 1) {
            int r2 = __builtin_ctzll(rest);
            int gap = abs(r2 - r);
            word left = rows[depth][r2] & ~(column_bit | (column_bit << gap) | (column_bit >> gap));
            rows[child][r2] = left;
            int key = __builtin_popcountll(left) << RANK_BITS | rank_of[r2];
            if (key < best) {
                best = key, chosen = r2;
                if (key < EMPTY) break;
            }
        }
        if (best >= EMPTY && !rows_only) {
            for (word rest = full & ~covered_cols; rest; rest &= rest - 1) {
                int c2 = __builtin_ctzll(rest);
                int gap = abs(c2 - c);
                word left = cols[depth][c2] & ~(row_bit | (row_bit << gap) | (row_bit >> gap));
                cols[child][c2] = left;
                int key = __builtin_popcountll(left) << RANK_BITS | rank_of[n + c2];
                if (key < best) {
                    best = key, chosen = n + c2;
                    if (key < EMPTY) break;
                }
            }
        }
        if (best < EMPTY) continue;
        used_rows[child] = covered_rows;
        used_cols[child] = covered_cols;
        item[child] = chosen;
        pending[child] = chosen < n ? rows[child][chosen] : cols[child][chosen - n];
        depth = child;
    }
    *nodes_out = nodes;
    return found;
}

int main(int argc, char **argv) {
    int count_all = 0, rows_only = 0;
    long long node_limit = -1;
    for (int i = 1; i < argc; i++) {
        if (strcmp(argv[i], "--count") == 0) {
            count_all = 1;
        } else if (strcmp(argv[i], "--rows-only") == 0) {
            rows_only = 1;
        } else if (strcmp(argv[i], "--node-limit") == 0 && i + 1 < argc) {
            node_limit = atoll(argv[++i]);
        } else {
            fprintf(stderr,
                    "usage: %s [--count] [--rows-only] [--node-limit N] < instances\n"
                    "  (each instance: n m, then m lines: row column)\n",
                    argv[0]);
            return 2;
        }
    }
    int n, m;
    while (scanf("%d %d", &n, &m) == 2) {
        if (n < 1 || n > 64 || m < 0) {
            fprintf(stderr, "bad instance header: n=%d m=%d (1 <= n <= 64)\n", n, m);
            return 2;
        }
        word full = ~(word)0 >> (64 - n);
        for (int r = 0; r < n; r++) rows[0][r] = full;
        for (int i = 0; i < m; i++) {
            int r, c;
            if (scanf("%d %d", &r, &c) != 2 || r < 0 || r >= n || c < 0 || c >= n) {
                fprintf(stderr, "bad blocked square in an instance of n=%d\n", n);
                return 2;
            }
            rows[0][r] &= ~((word)1 << c);
        }
        for (int c = 0; c < n; c++) {
            cols[0][c] = 0;
            for (int r = 0; r < n; r++)
                if (rows[0][r] >> c & 1) cols[0][c] |= (word)1 << r;
        }
        struct timespec start, end;
        long long nodes;
        clock_gettime(CLOCK_MONOTONIC, &start);
        long long found = search(n, count_all, rows_only, node_limit, &nodes);
        clock_gettime(CLOCK_MONOTONIC, &end);
        double seconds = (end.tv_sec - start.tv_sec) + (end.tv_nsec - start.tv_nsec) / 1e9;
        printf("%lld %lld %.6f\n", found, nodes, seconds);
        fflush(stdout);
    }
    return 0;
}

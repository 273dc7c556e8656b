/* Reference for the exactcover backend: n-queens as exact cover, Algorithm X over bitsets.
 *
 * Build and run:  gcc -O2 -march=native -o exactcover_reference exactcover_reference.c
 *                 ./exactcover_reference [--count] [--rows-only] [--node-limit N] [--wide]
 *                     < instances
 *
 * Input: any number of instances, each "n m" followed by m blocked squares "row column"
 * (0-based, 1 <= n <= 1000; a given queen is its row's other squares blocked). Output, one line per instance: "<solutions> <nodes> <seconds>",
 * where solutions is 0 or 1 (the search stops at the first one) or, with --count,
 * the number of solutions; -1 when the search stopped at the node limit unfinished.
 * The clock covers the search only, not the reading.
 *
 * --rows-only chooses among the open rows only (the columns become secondary items,
 * as in a row-by-row backtracker that picks its row by fewest options): a measure of
 * what choosing columns too is worth.
 *
 * Boards up to n = 64 are searched with one machine word per row and column mask;
 * larger ones (or any, with --wide) with ceil(n / 64) words per mask, lowest first
 * (search_wide, the backend's cpqueens/solvers/exactcover/wide.py): the same search,
 * the same nodes.
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
#define MAX_N 1000
/* The wide search's keys: its count, then its rank (below 2^24), as wide.py's. */
#define WIDE_RANK_BITS 24
#define WIDE_EMPTY (1LL << WIDE_RANK_BITS)

static word rows[65][64], cols[65][64], used_rows[65], used_cols[65], pending[65];
static int item[MAX_N + 1];
static int rank_of[2 * MAX_N]; /* rank_of[r] for row r, rank_of[n + c] for column c */

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

/* The wide search's state: masks of `words` words, lowest first (see search_wide). */
static int words;
static word *wrows, *wcols, *wused, *wpending, wfull[(MAX_N + 63) / 64];
#define WROW(d, line) (wrows + ((size_t)(d) * n + (line)) * words)
#define WCOL(d, line) (wcols + ((size_t)(d) * n + (line)) * words)

/* Bit `square` of its word when it lies in the word starting at bit 0 (0 <= square < 64). */
static inline word bit_in(int square) {
    return (unsigned)square < 64 ? (word)1 << square : 0;
}

static int count_words(const word *mask) {
    int count = 0;
    for (int w = 0; w < words; w++) count += __builtin_popcountll(mask[w]);
    return count;
}

/* Build the child's masks of the open lines (rows, or columns), keeping the smallest key:
 * line l loses `spot` and spot +- |l - placed|. Stops at a line left empty. */
static void scan_wide(int n, word *masks, int depth, const word *covered, int placed,
                      int spot, int offset, long long *best, int *chosen) {
    for (int w = 0; w < words; w++) {
        for (word rest = wfull[w] & ~covered[w]; rest; rest &= rest - 1) {
            int line = w * 64 + __builtin_ctzll(rest);
            int gap = abs(line - placed), count = 0;
            const word *from = masks + ((size_t)depth * n + line) * words;
            word *to = masks + ((size_t)(depth + 1) * n + line) * words;
            for (int v = 0; v < words; v++) {
                int here = spot - v * 64;
                to[v] = from[v] & ~(bit_in(here) | bit_in(here - gap) | bit_in(here + gap));
                count += __builtin_popcountll(to[v]);
            }
            long long key = (long long)count << WIDE_RANK_BITS | rank_of[offset + line];
            if (key < *best) {
                *best = key, *chosen = offset + line;
                if (key < WIDE_EMPTY) return;
            }
        }
    }
}

/* search() on masks of `words` words: the same items, rule, ties, order and nodes. */
static long long search_wide(int n, int count_all, int rows_only, long long node_limit,
                             long long *nodes_out) {
    long long nodes = 0, found = 0, no_item = (long long)(n + 1) << WIDE_RANK_BITS;
    int depth = 0;
    tie_ranks(n);
    memset(wused, 0, 2 * words * sizeof(word));
    long long best = no_item;
    int chosen = -1;
    for (int line = 0; line < (rows_only ? n : 2 * n); line++) {
        const word *mask = line < n ? WROW(0, line) : WCOL(0, line - n);
        long long key = (long long)count_words(mask) << WIDE_RANK_BITS | rank_of[line];
        if (key < best) best = key, chosen = line;
    }
    if (best < WIDE_EMPTY) depth = -1;
    else {
        item[0] = chosen;
        memcpy(wpending, chosen < n ? WROW(0, chosen) : WCOL(0, chosen - n), words * sizeof(word));
    }
    while (depth >= 0) {
        word *pending_here = wpending + (size_t)depth * words;
        int w = 0;
        while (w < words && pending_here[w] == 0) w++;
        if (w == words) {
            depth--;
            continue;
        }
        word options = pending_here[w], bit = options & (0 - options);
        pending_here[w] = options ^ bit;
        int index = w * 64 + __builtin_ctzll(bit), r, c;
        if (item[depth] < n) r = item[depth], c = index;
        else r = index, c = item[depth] - n;
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
        word *used_here = wused + (size_t)depth * 2 * words, *used_child = used_here + 2 * words;
        memcpy(used_child, used_here, 2 * words * sizeof(word));
        used_child[r >> 6] |= (word)1 << (r & 63);
        used_child[words + (c >> 6)] |= (word)1 << (c & 63);
        best = no_item, chosen = -1;
        scan_wide(n, wrows, depth, used_child, r, c, 0, &best, &chosen);
        if (best >= WIDE_EMPTY && !rows_only)
            scan_wide(n, wcols, depth, used_child + words, c, r, n, &best, &chosen);
        if (best < WIDE_EMPTY) continue;
        item[child] = chosen;
        memcpy(wpending + (size_t)child * words,
               chosen < n ? WROW(child, chosen) : WCOL(child, chosen - n), words * sizeof(word));
        depth = child;
    }
    *nodes_out = nodes;
    return found;
}

int main(int argc, char **argv) {
    int count_all = 0, rows_only = 0, force_wide = 0;
    long long node_limit = -1;
    for (int i = 1; i < argc; i++) {
        if (strcmp(argv[i], "--count") == 0) {
            count_all = 1;
        } else if (strcmp(argv[i], "--rows-only") == 0) {
            rows_only = 1;
        } else if (strcmp(argv[i], "--wide") == 0) {
            force_wide = 1;
        } else if (strcmp(argv[i], "--node-limit") == 0 && i + 1 < argc) {
            node_limit = atoll(argv[++i]);
        } else {
            fprintf(stderr,
                    "usage: %s [--count] [--rows-only] [--node-limit N] [--wide] < instances\n"
                    "  (each instance: n m, then m lines: row column)\n",
                    argv[0]);
            return 2;
        }
    }
    int n, m;
    static unsigned char open_square[MAX_N][MAX_N];
    while (scanf("%d %d", &n, &m) == 2) {
        if (n < 1 || n > MAX_N || m < 0) {
            fprintf(stderr, "bad instance header: n=%d m=%d (1 <= n <= %d)\n", n, m, MAX_N);
            return 2;
        }
        for (int r = 0; r < n; r++) memset(open_square[r], 1, n);
        for (int i = 0; i < m; i++) {
            int r, c;
            if (scanf("%d %d", &r, &c) != 2 || r < 0 || r >= n || c < 0 || c >= n) {
                fprintf(stderr, "bad blocked square in an instance of n=%d\n", n);
                return 2;
            }
            open_square[r][c] = 0;
        }
        int wide = force_wide || n > 64;
        if (wide) {
            words = (n + 63) / 64;
            size_t masks = (size_t)(n + 1) * n * words;
            wrows = calloc(masks, sizeof(word));
            wcols = calloc(masks, sizeof(word));
            wused = calloc((size_t)(n + 1) * 2 * words, sizeof(word));
            wpending = calloc((size_t)(n + 1) * words, sizeof(word));
            if (!wrows || !wcols || !wused || !wpending) {
                fprintf(stderr, "out of memory for n=%d\n", n);
                return 2;
            }
            for (int w = 0; w < words; w++)
                wfull[w] = n - 64 * w >= 64 ? ~(word)0 : ((word)1 << (n - 64 * w)) - 1;
            for (int r = 0; r < n; r++)
                for (int c = 0; c < n; c++)
                    if (open_square[r][c]) {
                        WROW(0, r)[c >> 6] |= (word)1 << (c & 63);
                        WCOL(0, c)[r >> 6] |= (word)1 << (r & 63);
                    }
        } else {
            for (int r = 0; r < n; r++) {
                rows[0][r] = 0;
                cols[0][r] = 0;
            }
            for (int r = 0; r < n; r++)
                for (int c = 0; c < n; c++)
                    if (open_square[r][c]) {
                        rows[0][r] |= (word)1 << c;
                        cols[0][c] |= (word)1 << r;
                    }
        }
        struct timespec start, end;
        long long nodes;
        clock_gettime(CLOCK_MONOTONIC, &start);
        long long found = wide ? search_wide(n, count_all, rows_only, node_limit, &nodes)
                               : search(n, count_all, rows_only, node_limit, &nodes);
        clock_gettime(CLOCK_MONOTONIC, &end);
        double seconds = (end.tv_sec - start.tv_sec) + (end.tv_nsec - start.tv_nsec) / 1e9;
        printf("%lld %lld %.6f\n", found, nodes, seconds);
        fflush(stdout);
        if (wide) {
            free(wrows), free(wcols), free(wused), free(wpending);
        }
    }
    return 0;
}

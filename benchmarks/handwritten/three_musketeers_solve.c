/* Three Musketeers solved strongly by a program written by hand for this one game: the
   baseline `rulecraft solve three-musketeers --all-symmetries` is measured against in the
   same sitting (benchmarks/solve_handwritten.py; issue #34 asks for at most 1.5 times
   its CPU time).

   The rules are exactly docs/RULES.md section 1, and nothing here comes from rulecraft:
   - a cell (file f, rank r, from 0) is bit 5 r + f; a position is the musketeers' mask,
     the enemies' mask and the side to move (0: the Musketeers);
   - the ends are checked on entering a position, in the rulebook's order: the three
     musketeers on one rank or one file (the Enemy wins), else the side to move stuck
     (the Musketeers win);
   - one position a class of the 8 symmetries of the square: the least image of the
     musketeers, then of the enemies;
   - memoised minimax, depth first (the game never repeats a position: each Musketeers'
     ply takes a man), a byte a position: 0 unknown, else 1 + (remoteness << 1 | win);
     a position's children are all made and their bytes asked of memory (prefetched)
     before the first is searched, which halves the time;
   - the index: the side, the class of the musketeers' placement among the 2,300, and
     the enemies' cells among the 22 left (a bit each, packed by pext): addresses for
     every index, pages made as they are written.

   It prints the start's value and remoteness and the number of positions (classes)
   reached, to be checked against rulecraft's (docs/SOLUTIONS.md: the Musketeers lose in
   33; 537,558,924 positions, 301,098,620 won and 236,460,304 lost by the side to move).

   cc -O2 -march=native -o tm three_musketeers_solve.c && ./tm [POSITION]
   (POSITION: rulecraft's text form, "oo.oM/o...o/..Moo/o...o/Moo.o Musketeers"; the
   setup when none) */

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/mman.h>

#define N 25
#define FULL ((1u << N) - 1)
#define ENEMY_BITS 22

static uint32_t img[8][4][256];   /* each symmetry's image of each byte of a mask */
static uint32_t nbr[N];           /* orthogonal neighbours */
static uint16_t cls[2300];        /* the class of each musketeer placement (colex rank) */
static int ncls;
static uint8_t *val[2];           /* by side: ncls << 22 bytes */
static uint64_t positions, wins;

/* the bits of `x` at the cells of `mask`, packed from bit 0 */
static inline uint32_t pext(uint32_t x, uint32_t mask) {
#ifdef __BMI2__
    return __builtin_ia32_pext_si(x, mask);
#else
    uint32_t r = 0;
    for (int k = 0; mask; mask &= mask - 1, k++) if (x & mask & -mask) r |= 1u << k;
    return r;
#endif
}

static inline uint32_t image(int g, uint32_t m) {
    return img[g][0][m & 255] | img[g][1][m >> 8 & 255] | img[g][2][m >> 16 & 255] | img[g][3][m >> 24];
}

static int binom(int n, int k) {
    if (k < 0 || k > n) return 0;
    long r = 1;
    for (int i = 1; i <= k; i++) r = r * (n - k + i) / i;
    return (int)r;
}

static int b1[N], b2[N], b3[N];   /* C(c, 1), C(c, 2), C(c, 3) */

static inline int colex3(uint32_t m) {
    int a = __builtin_ctz(m); m &= m - 1;
    int b = __builtin_ctz(m); m &= m - 1;
    return b1[a] + b2[b] + b3[__builtin_ctz(m)];
}

static void tables(void) {
    for (int c = 0; c < N; c++) {
        int f = c % 5, r = c / 5;
        nbr[c] = (f > 0 ? 1u << (c - 1) : 0) | (f < 4 ? 1u << (c + 1) : 0) |
                 (r > 0 ? 1u << (c - 5) : 0) | (r < 4 ? 1u << (c + 5) : 0);
        b1[c] = binom(c, 1); b2[c] = binom(c, 2); b3[c] = binom(c, 3);
    }
    for (int g = 0; g < 8; g++)
        for (int j = 0; j < 4; j++)
            for (int v = 0; v < 256; v++) {
                uint32_t m = 0;
                for (int b = 0; b < 8; b++) {
                    int c = 8 * j + b;
                    if (!(v >> b & 1) || c >= N) continue;
                    int f = c % 5, r = c / 5, x = f, y = r;
                    if (g & 1) x = 4 - x;
                    if (g & 2) y = 4 - y;
                    if (g & 4) { int t = x; x = y; y = t; }
                    m |= 1u << (5 * y + x);
                }
                img[g][j][v] = m;
            }
    for (int a = 0; a < N; a++)  /* the placements of 3, each kept if least of its images */
        for (int b = a + 1; b < N; b++)
            for (int c = b + 1; c < N; c++) {
                uint32_t m = 1u << a | 1u << b | 1u << c, least = m;
                for (int g = 1; g < 8; g++) if (image(g, m) < least) least = image(g, m);
                if (least == m) cls[colex3(m)] = (uint16_t)ncls++;
            }
}

static inline int aligned(uint32_t m) {
    for (int r = 0; r < 5; r++) if ((m & (31u << 5 * r)) == m) return 1;
    for (int f = 0; f < 5; f++) if ((m & (0x108421u << f)) == m) return 1;
    return 0;
}

/* the value byte's address of the position (its least image: musketeers, then enemies) */
static inline uint8_t *slot_of(uint32_t m, uint32_t e, int side) {
    uint32_t bm = m, be = e;
    for (int g = 1; g < 8; g++) {
        uint32_t im = image(g, m);
        if (im > bm) continue;
        uint32_t ie = image(g, e);
        if (im < bm || ie < be) { bm = im; be = ie; }
    }
    return &val[side][((uint64_t)cls[colex3(bm)] << ENEMY_BITS) | pext(be, FULL & ~bm)];
}

typedef struct { uint32_t m, e; uint8_t *slot; } Kid;

/* the value byte of the position at `slot` for the side to move: its children made and
   their value bytes asked of memory first, then each solved in turn */
static unsigned solve(uint32_t m, uint32_t e, int side, uint8_t *slot) {
    if (*slot) return *slot;
    unsigned x;
    if (aligned(m)) {
        x = 1 + (side == 1);  /* the Enemy has won */
    } else {
        Kid kid[100];
        int n = 0;
        if (side == 0) {
            for (uint32_t ms = m; ms; ms &= ms - 1) {
                int c = __builtin_ctz(ms);
                for (uint32_t t = nbr[c] & e; t; t &= t - 1) {
                    uint32_t to = t & -t;
                    kid[n].m = m ^ (1u << c) ^ to;
                    kid[n++].e = e ^ to;
                }
            }
        } else {
            uint32_t empty = FULL & ~m & ~e;
            for (uint32_t es = e; es; es &= es - 1) {
                int c = __builtin_ctz(es);
                for (uint32_t t = nbr[c] & empty; t; t &= t - 1) {
                    kid[n].m = m;
                    kid[n++].e = e ^ (1u << c) ^ (t & -t);
                }
            }
        }
        for (int a = 0; a < n; a++) {
            kid[a].slot = slot_of(kid[a].m, kid[a].e, !side);
            __builtin_prefetch(kid[a].slot);
        }
        uint32_t win = 255, lose = 0;
        for (int a = 0; a < n; a++) {
            unsigned y = solve(kid[a].m, kid[a].e, !side, kid[a].slot);
            uint32_t r = (y - 1) >> 1;
            if ((y - 1) & 1) { if (r > lose) lose = r; } else if (r < win) win = r;
        }
        if (!n) x = 1 + (side == 0);  /* stuck: the Musketeers have won */
        else if (win != 255) x = 1 + ((win + 1) << 1 | 1);
        else x = 1 + ((lose + 1) << 1);
    }
    positions++;
    wins += (x - 1) & 1;
    *slot = (uint8_t)x;
    return x;
}

/* the position of rulecraft's text form "RANK5/RANK4/.../RANK1 SIDE" (M, o and .; the side
   Musketeers or Enemy); 0, or -1 if it is not one */
static int parse(int argc, char **argv, uint32_t *m, uint32_t *e, int *side) {
    if (argc == 1) return 0;
    const char *p = argv[1];
    *m = *e = 0;
    for (int r = 4; r >= 0; r--, p++) {
        for (int f = 0; f < 5; f++, p++) {
            if (*p == 'M') *m |= 1u << (5 * r + f);
            else if (*p == 'o') *e |= 1u << (5 * r + f);
            else if (*p != '.') return -1;
        }
        if (*p != (r ? '/' : ' ')) return -1;
    }
    *side = p[0] == 'E';
    return __builtin_popcount(*m) == 3 ? 0 : -1;
}

int main(int argc, char **argv) {
    uint32_t m = 1u << 0 | 1u << 12 | 1u << 24, e = FULL & ~m;  /* a1, c3, e5 */
    int side = 0;
    if (parse(argc, argv, &m, &e, &side)) {
        fprintf(stderr, "usage: %s [\"RANK5/.../RANK1 Musketeers|Enemy\"]\n", argv[0]);
        return 2;
    }
    tables();
    for (int s = 0; s < 2; s++) {
        size_t bytes = (size_t)ncls << ENEMY_BITS;
        val[s] = mmap(NULL, bytes, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
        if (val[s] == MAP_FAILED) { perror("mmap"); return 1; }
    }
    unsigned x = solve(m, e, side, slot_of(m, e, side));
    printf("start: %s in %u\npositions: %llu (%llu won, %llu lost by the side to move)\n",
           (x - 1) & 1 ? "win" : "lose", (x - 1) >> 1, (unsigned long long)positions,
           (unsigned long long)wins, (unsigned long long)(positions - wins));
    return 0;
}

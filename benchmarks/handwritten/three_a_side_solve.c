/* 3-A-Side solved strongly by a program written by hand for this one game: the baseline
   `rulecraft solve 3-a-side --symmetry --swap-players` is measured against in the same
   sitting (benchmarks/solve_handwritten.py --game 3-a-side; issue #34 asks for at most
   1.5 times its CPU time).

   The rules are exactly docs/RULES.md section 4, and nothing here comes from rulecraft:
   - the 35 points in reading order (row 1, d1 f1 h1 j1, first), bit i of a mask each;
     a point is (row r, column x), x counting half steps from a; its lattice neighbours
     are (r, x +- 2) and (r +- 1, x +- 1); b3-b5 and l3-l5 are joined too;
   - a position is seen from the player to move ("us"), who defends the south goal: North
     to move is the board turned over north to south with the colours exchanged, so a
     position and that image are one (the colour swap);
   - the index: the ball's point, our men among the 34 other points and theirs among the
     31 left (colex ranks of the masks packed by pext), and the ply of the turn (first or
     second): 1,882,865,600 positions, two bytes each, every arrangement reached or not;
   - retrograde analysis by un-moves: each position counts its plies whose child is not
     ended; a ply into their goal wins at once, one into ours loses at once. Then round r
     takes the positions decided with remoteness r (a bitmap) and, for each, makes every
     predecessor (our man stepped back, the ball kicked back along a line or a link, or,
     at a turn's first ply, the same for the other player's last ply) and settles it. The
     predecessor wins (remoteness r + 1) when the position is a win for its mover: lost
     by the other player to move, or won by the same player (the turn's first ply before
     it).
     Otherwise it has one ply fewer to wait for, and loses at r + 1 when none is left.
     Predecessors are asked of memory (prefetched) as they are made and settled a
     thousand at a time;
   - what is never decided is a draw.

   It prints the start's value (and remoteness) and the counts over the whole index; with
   --query it then reads positions, one a line, and prints each one's value.

   cc -O2 -march=native -o tas three_a_side_solve.c && ./tas [POSITION] [--query]
   (POSITION: rulecraft's text form, "..../.NNN./....../..*../....../.SSS./..../.. South
   ply=1", the setup when none; -DMEN=1 or -DMEN=2 builds the game with one or two men a
   side, as the tests do) */

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <time.h>

#ifndef MEN
#define MEN 3
#endif
#if MEN == 1
#define CU 34ull
#define CT 33ull
#elif MEN == 2
#define CU 561ull
#define CT 496ull
#elif MEN == 3
#define CU 5984ull
#define CT 4495ull
#else
#error "MEN is 1, 2 or 3"
#endif
#define NPOS (35ull * CU * CT * 2)
#define P 35                      /* points */
#define NGOAL 35                  /* the goal we attack: a ray's end */
#define SGOAL 36                  /* the goal we defend */
#define OFF 37
#define BOARD ((1ull << P) - 1)
#define DONE 0x8000u              /* an entry: DONE | LOSE? | remoteness, else plies left */
#define LOSE 0x4000u
#define BATCH 1024

static const int rows[7][8] = {   /* each row's columns, -1 ended */
    {3, 5, 7, 9, -1}, {2, 4, 6, 8, 10, -1}, {1, 3, 5, 7, 9, 11, -1}, {2, 4, 6, 8, 10, -1},
    {1, 3, 5, 7, 9, 11, -1}, {2, 4, 6, 8, 10, -1}, {3, 5, 7, 9, -1}};
static const int dr[6] = {0, 0, -1, -1, 1, 1}, dx[6] = {2, -2, 1, -1, 1, -1};
static const int back[6] = {1, 0, 5, 4, 3, 2};   /* e w ne nw se sw: the opposite */

static int at[9][13];             /* (row 1..7, column) -> point, -1 off the board */
static int flip[P];               /* north to south */
static int link_to[P];            /* the other end of a link, or -1 */
static uint64_t adj[P];           /* neighbours, links included */
static int ray[P][6][MEN];        /* a line's points: a point, NGOAL, SGOAL or OFF */
static uint64_t un_u[CU], un_t[CT];
static uint32_t binom[64][MEN + 1];
static uint16_t *tab;
static uint64_t *front[2];

static inline uint64_t pext(uint64_t x, uint64_t m) {
#ifdef __BMI2__
    return __builtin_ia32_pext_di(x, m);
#else
    uint64_t r = 0;
    for (int k = 0; m; m &= m - 1, k++) if (x & m & -m) r |= 1ull << k;
    return r;
#endif
}

static inline uint64_t pdep(uint64_t x, uint64_t m) {
#ifdef __BMI2__
    return __builtin_ia32_pdep_di(x, m);
#else
    uint64_t r = 0;
    for (int k = 0; m; m &= m - 1, k++) if (x >> k & 1) r |= m & -m;
    return r;
#endif
}

static void tables(void) {
    memset(at, -1, sizeof at);
    int n = 0, rc[P][2];
    for (int r = 1; r <= 7; r++)
        for (int k = 0; rows[r - 1][k] >= 0; k++) {
            at[r][rows[r - 1][k]] = n;
            rc[n][0] = r, rc[n][1] = rows[r - 1][k], n++;
        }
    for (int c = 0; c < P; c++) {
        int r = rc[c][0], x = rc[c][1];
        flip[c] = at[8 - r][x];
        link_to[c] = -1;
        for (int d = 0; d < 6; d++) {
            int rr = r, xx = x, ended = 0;
            for (int k = 0; k < MEN; k++) {
                int to = OFF;
                if (!ended) {
                    rr += dr[d], xx += dx[d];
                    if (rr == 0) to = d == 2 || d == 3 ? NGOAL : OFF;
                    else if (rr == 8) to = d == 4 || d == 5 ? SGOAL : OFF;
                    else if (rr >= 1 && rr <= 7 && xx >= 0 && xx <= 12 && at[rr][xx] >= 0) to = at[rr][xx];
                    ended = to >= P;
                }
                ray[c][d][k] = to;
            }
            if (ray[c][d][0] < P) adj[c] |= 1ull << ray[c][d][0];
        }
    }
    int ends[2][2] = {{at[3][1], at[5][1]}, {at[3][11], at[5][11]}};
    for (int k = 0; k < 2; k++) {
        int a = ends[k][0], b = ends[k][1];
        link_to[a] = b, link_to[b] = a;
        adj[a] |= 1ull << b, adj[b] |= 1ull << a;
    }
    for (int i = 0; i < 64; i++)
        for (int k = 0; k <= MEN; k++)
            binom[i][k] = k == 0 ? 1 : i == 0 ? 0 : binom[i - 1][k - 1] + binom[i - 1][k];
    /* colex order is the order of the masks as numbers (Gosper's successor) */
    uint64_t m = (1ull << MEN) - 1;
    for (uint64_t i = 0; i < CU; i++, m = (((m ^ (m + (m & -m))) >> 2) / (m & -m)) | (m + (m & -m)))
        un_u[i] = m;
    m = (1ull << MEN) - 1;
    for (uint64_t i = 0; i < CT; i++, m = (((m ^ (m + (m & -m))) >> 2) / (m & -m)) | (m + (m & -m)))
        un_t[i] = m;
}

static inline uint64_t colex(uint64_t m) {
    uint64_t r = 0;
    for (int k = 1; m; m &= m - 1, k++) r += binom[__builtin_ctzll(m)][k];
    return r;
}

static inline uint64_t index_of(int b, uint64_t us, uint64_t them, int ply) {
    uint64_t free1 = BOARD & ~(1ull << b);
    uint64_t ru = colex(pext(us, free1)), rt = colex(pext(them, free1 & ~us));
    return (((uint64_t)b * CU + ru) * CT + rt) * 2 + (uint64_t)ply;
}

static inline uint64_t flip_mask(uint64_t m) {
    uint64_t r = 0;
    for (; m; m &= m - 1) r |= 1ull << flip[__builtin_ctzll(m)];
    return r;
}

static inline void mark(uint64_t *f, uint64_t i) { f[i >> 6] |= 1ull << (i & 63); }

/* Every position's entry: its plies to wait for, or its value when a ply ends the game
   or it has none. */
static void count_plies(void) {
    for (int b = 0; b < P; b++) {
        uint64_t free1 = BOARD & ~(1ull << b);
        for (uint64_t ru = 0; ru < CU; ru++) {
            uint64_t us = pdep(un_u[ru], free1), free2 = free1 & ~us;
            int kick = __builtin_popcountll(adj[b] & us);
            uint64_t base = ((uint64_t)b * CU + ru) * CT;
            for (uint64_t rt = 0; rt < CT; rt++) {
                uint64_t empty = free2 & ~pdep(un_t[rt], free2);
                unsigned plies = 0, win = 0, own = 0;
                for (uint64_t m = us; m; m &= m - 1)
                    plies += __builtin_popcountll(adj[__builtin_ctzll(m)] & empty);
                if (kick) {
                    for (int d = 0; d < 6; d++)
                        for (int k = 0; k < kick; k++) {
                            int c = ray[b][d][k];
                            if (c >= P) { win |= c == NGOAL; own += c == SGOAL; break; }
                            if (!(empty >> c & 1)) break;
                            plies++;
                        }
                    if (link_to[b] >= 0 && (empty >> link_to[b] & 1)) plies++;
                }
                uint16_t e = (uint16_t)plies;
                int r = -1;
                if (win) e = DONE | 1, r = 1;
                else if (!plies) e = DONE | LOSE | (own ? 1 : 0), r = own ? 1 : 0;
                uint64_t i = (base + rt) * 2;
                tab[i] = tab[i + 1] = e;
                if (r >= 0) mark(front[r], i), mark(front[r], i + 1);
            }
        }
    }
}

/* The predecessors of (ball b, movers' men `mv`, the others' `ot`) by the movers' last ply:
   (ball, movers' men) pairs written to out; returns how many. */
static inline int unmoves(int b, uint64_t mv, uint64_t ot, int *ball, uint64_t *men) {
    uint64_t occ = mv | ot | 1ull << b, empty = BOARD & ~occ;
    int n = 0;
    for (uint64_t m = mv; m; m &= m - 1) {
        uint64_t u = m & -m;
        for (uint64_t y = adj[__builtin_ctzll(m)] & empty; y; y &= y - 1)
            ball[n] = b, men[n++] = mv ^ u ^ (y & -y);
    }
    for (int d = 0; d < 6; d++)
        for (int k = 0; k < MEN; k++) {
            int a = ray[b][back[d]][k];
            if (a >= P || !(empty >> a & 1)) break;
            if (__builtin_popcountll(adj[a] & mv) > k) ball[n] = a, men[n++] = mv;
        }
    int a = link_to[b];
    if (a >= 0 && (empty >> a & 1) && (adj[a] & mv)) ball[n] = a, men[n++] = mv;
    return n;
}

static uint64_t pend[BATCH + 64];
static uint8_t pend_win[BATCH + 64];
static int npend;

static void settle(uint64_t *next, unsigned r1, uint64_t *decided) {
    for (int k = 0; k < npend; k++) {
        uint64_t p = pend[k];
        unsigned e = tab[p];
        if (e & DONE) continue;
        if (pend_win[k]) e = DONE | r1;
        else if (--e == 0) e = DONE | LOSE | r1;
        tab[p] = (uint16_t)e;
        if (e & DONE) mark(next, p), ++*decided;
    }
    npend = 0;
}

/* Settle the predecessors of position i, decided as `lost` (for its mover) at r. */
static inline void predecessors(uint64_t i, int lost) {
    int ply = (int)(i & 1), ball[64];
    uint64_t q = i >> 1, rt = q % CT, men[64];
    q /= CT;
    int b = (int)(q / CU);
    uint64_t free1 = BOARD & ~(1ull << b), us = pdep(un_u[q % CU], free1);
    uint64_t them = pdep(un_t[rt], free1 & ~us);
    if (ply) {   /* our first ply came before */
        int n = unmoves(b, us, them, ball, men);
        for (int k = 0; k < n; k++) {
            uint64_t p = index_of(ball[k], men[k], them, 0);
            __builtin_prefetch(&tab[p], 1);
            pend[npend] = p, pend_win[npend++] = (uint8_t)!lost;
        }
    } else {     /* their second ply came before: seen from them */
        uint64_t fus = flip_mask(us);
        int n = unmoves(flip[b], flip_mask(them), fus, ball, men);
        for (int k = 0; k < n; k++) {
            uint64_t p = index_of(ball[k], men[k], fus, 1);
            __builtin_prefetch(&tab[p], 1);
            pend[npend] = p, pend_win[npend++] = (uint8_t)lost;
        }
    }
}

static unsigned retrograde(void) {
    uint64_t words = (NPOS + 63) / 64;
    unsigned r;
    for (r = 0;; r++) {
        uint64_t *cur = front[r & 1], *next = front[(r + 1) & 1], decided = 0, seen = 0;
        for (uint64_t w = 0; w < words; w++) {
            for (uint64_t bits = cur[w]; bits; bits &= bits - 1) {
                uint64_t i = w * 64 + (uint64_t)__builtin_ctzll(bits);
                predecessors(i, (tab[i] & LOSE) != 0);
                seen++;
                if (npend >= BATCH) settle(next, r + 1, &decided);
            }
            cur[w] = 0;
        }
        settle(next, r + 1, &decided);
        if (!seen && r > 0) return r;
        if (r + 1 >= LOSE) { fprintf(stderr, "remoteness past %u\n", LOSE - 1); exit(3); }
    }
}

/* rulecraft's text form -> (ball, the mover's men, the others', ply); 0 if not one. */
static int parse(const char *s, int *b, uint64_t *us, uint64_t *them, int *ply) {
    uint64_t south = 0, north = 0;
    int c = 0, ball = -1, balls = 0;
    for (; *s && *s != ' '; s++) {
        if (*s == '/') continue;
        if (c >= P) { if (*s != '.') return 0; c++; continue; }   /* the goals: empty */
        if (*s == 'S') south |= 1ull << c;
        else if (*s == 'N') north |= 1ull << c;
        else if (*s == '*') ball = c, balls++;
        else if (*s != '.') return 0;
        c++;
    }
    char who[16];
    if (c != P + 2 || balls != 1 || __builtin_popcountll(south) != MEN || __builtin_popcountll(north) != MEN
        || sscanf(s, " %15s ply=%d", who, ply) != 2 || (*ply != 1 && *ply != 2))
        return 0;
    *ply -= 1;
    if (!strcmp(who, "South")) *b = ball, *us = south, *them = north;
    else if (!strcmp(who, "North")) *b = flip[ball], *us = flip_mask(north), *them = flip_mask(south);
    else return 0;
    return 1;
}

static void print_value(const char *what, unsigned e) {
    if (!(e & DONE)) printf("%sdraw\n", what);
    else printf("%s%s in %u\n", what, e & LOSE ? "lose" : "win", e & (LOSE - 1));
}

static void *big(uint64_t bytes) {
    void *p = mmap(NULL, bytes, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
    if (p == MAP_FAILED) { perror("mmap"); exit(1); }
    madvise(p, bytes, MADV_HUGEPAGE);
    return p;
}

static double now(void) {
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + t.tv_nsec * 1e-9;
}

int main(int argc, char **argv) {
    const char *start = MEN == 3 ? "..../.NNN./....../..*../....../.SSS./..../.. South ply=1" : NULL;
    int query = 0;
    for (int k = 1; k < argc; k++) {
        if (!strcmp(argv[k], "--query")) query = 1;
        else start = argv[k];
    }
    tables();
    int b, ply;
    uint64_t us, them;
    if (!start || !parse(start, &b, &us, &them, &ply)) {
        fprintf(stderr, "usage: %s [POSITION] [--query] (built with %d %s a side; without POSITION "
                "the start is the setup, which has 3)\n", argv[0], MEN, MEN == 1 ? "man" : "men");
        return 2;
    }
    tab = big(NPOS * sizeof *tab);
    front[0] = big((NPOS + 63) / 64 * 8), front[1] = big((NPOS + 63) / 64 * 8);
    double t0 = now();
    count_plies();
    double t1 = now();
    unsigned rounds = retrograde();
    double t2 = now();
    uint64_t won = 0, lost = 0;
    for (uint64_t i = 0; i < NPOS; i++)
        if (tab[i] & DONE) { if (tab[i] & LOSE) lost++; else won++; }
    print_value("start: ", tab[index_of(b, us, them, ply)]);
    printf("index: %llu positions (%llu won, %llu lost, %llu drawn by the player to move); %u rounds\n",
           (unsigned long long)NPOS, (unsigned long long)won, (unsigned long long)lost,
           (unsigned long long)(NPOS - won - lost), rounds);
    printf("seconds: plies counted %.1f, retrograde %.1f\n", t1 - t0, t2 - t1);
    fflush(stdout);
    char line[256];
    while (query && fgets(line, sizeof line, stdin)) {
        line[strcspn(line, "\n")] = 0;
        if (!parse(line, &b, &us, &them, &ply)) printf("not a position\n");
        else print_value("", tab[index_of(b, us, them, ply)]);
        fflush(stdout);
    }
    return 0;
}

/* rulecraft native back-end: the exact solver (after the game's code and runtime.c).

   The Python solver's semantics (interpreter/search/solver.py) with a compact index:

   INDEX. A position is a block and a rank in it. A block is one combination of the piece
   counts of each type, the int slots (player, phase, variables, reserves, previous rule,
   outcome) and the previous ply's cells; blocks are made as reachability meets them (a
   hash table of them), so counters need no declared range and reserves or history cost
   only the values they really take. In a block, the pieces are ranked combinatorially,
   type by type (carriers before their riders): a one-cell type chooses its cells among
   those still free at its level (a rider among its carrier's cells), a wide type (size > 1)
   its placement among the placements passed in. The rank is a mixed-radix number, so a
   block is a perfect hash of its positions.

   SOLVING. Reachability breadth-first over the blocks' bitsets (1 bit an index, 2 more for
   the blocks on the frontier), each position reduced to its canonical form under the
   symmetries passed in; it notes which blocks each block's children fall in. When those
   blocks form no cycle, the one-pass solve (sv_one_pass) takes them children first and
   gives each reached position its value from its children's, 2 bytes a position, no
   arcs. When they form cycles and every ply can be taken back (RC_UNDO), the same
   storage serves a retrograde solve whose predecessors are made, not stored (sv_undo,
   "UN-MOVES" below). Otherwise the reached positions get dense ids (a running count per
   512 bits) and the arcs between them, deduplicated per position, in CSR form (32-bit
   ids); retrograde analysis runs level by level from the ends as in the Python solver.
   Every way, values and remoteness are the Python solver's. Large arrays are mapped, from a deleted temporary
   file once the solve holds half the RAM.

   THREADS. Reachability and the arcs are cut into units of bitset words that the threads
   take in turn; what a unit finds does not depend on the schedule.

   Exports (ctypes): rc_solve_new, rc_solve_run, rc_solve_output, rc_solve_lookup,
   rc_solve_counts, rc_solve_position, rc_solve_stats, rc_solve_error, rc_solve_free (and
   solution_index.c's). interpreter/search/native_solve.py writes the configuration
   (documented at rc_solve_new). */

#include <sys/mman.h>
#include <fcntl.h>
#if defined(__BMI2__) || defined(__AVX2__)
#include <immintrin.h>
#endif
#include <unistd.h>
#include <errno.h>
#include <stdarg.h>
#include <stddef.h>

#define SV_WIN 1
#define SV_LOSE 2
#define SV_DRAW 3
#define SV_UNIT_WORDS 64             /* bitset words a thread takes at a time (4096 indices) */
#define SV_MAX_BLOCK ((uint64_t)1 << 40)
#define SV_MAP_BYTES ((size_t)2 << 20)    /* arrays this large are mapped (sv_alloc_as) */
#define SV_FILE_BYTES ((size_t)256 << 20) /* and these may be from a temporary file */
#define SV_NH (RC_NC - RC_NT + 1)    /* the previous ply's cells (+1: never an empty array) */
#define SV_MAX_THREADS 64
#define SV_MAX_KIDS 32               /* child blocks a block may have for the one-pass solve */
#define SV_MAX_REM 16383             /* the one-pass and un-move solves keep remoteness in 14 bits */
#define SV_RECENT 4                  /* blocks a thread remembers finding */
#define SV_FEW 64                    /* a block with no more positions lists its arcs (sv_few) */
#define SV_COMBO_CELLS 22            /* placements among this many cells unranked by table (sv_combos) */
#define SV_TALLY_MORE 252            /* a tally byte: more children than it keeps (sv_tally) */
#define SV_TALLY_END 252             /* a tally byte: SV_TALLY_END + an ended position's value */

enum { SV_ERR_INDEX = -10, SV_ERR_BLOCKS = -11, SV_ERR_STOP = -12, SV_ERR_POSITIONS = -13,
       SV_ERR_RANGE = -15 };

typedef unsigned __int128 sv_u128;

#if RC_W == 1 && RC_CELLS <= 32     /* a symmetry's image of a byte of cells (sv_permute) */
#define SV_IMG_BYTES 4
typedef uint32_t SvImg;
typedef uint32_t SvRank;            /* a part of a colex rank: C(32, 16) fits 32 bits */
#else
#define SV_IMG_BYTES (RC_W * 8)
typedef M SvImg;
typedef uint64_t SvRank;
#endif

typedef struct {  /* what a block is: no padding (memcmp compares it) */
    int64_t cnt[RC_NT];
    int64_t v[RC_NI];
    M hist[SV_NH];
} SvKey;

typedef struct { uint64_t kid, at; } SvArc;  /* a child (block id << 40 | index), its parent's index */

typedef struct SvBlock {
    SvKey key;
    uint64_t hash, size, words, base;  /* base: the dense id of its first reached position */
    uint64_t radix[RC_NT], stride[RC_NT];
    uint64_t count;                    /* its reached positions */
    int cur_any, id, ended, height, nkids, loop, npar;  /* loop: a child in itself */
    struct SvBlock *kids[SV_MAX_KIDS]; /* the blocks its positions' children are in */
    struct SvBlock **par;              /* un-move solve: the blocks with children in it */
    uint64_t *reach, *cur, *next;
    uint64_t *prefix;                  /* reached positions before each 8 words of `reach` */
    uint16_t *val;                     /* one-pass solve: value | remoteness << 2, dense */
    uint8_t *tally;                    /* un-move solve: reachability's count (sv_tally) */
    SvArc *few;                        /* un-move solve: a block of few positions, its arcs */
    size_t nfew;
    int tallied;                       /* its children counted from the tally */
} SvBlock;

typedef struct { SvBlock *b; uint64_t w0, w1; uint32_t *arcs; uint64_t narcs, cap; } SvUnit;
typedef struct { uint64_t lo, hi; uint32_t pay; } SvRec;

struct Sv;
typedef struct SvWork {
    struct Sv *sv;
    int tid;
    Buf buf;
    SvBlock **cb;   /* the children of the position being expanded: block, index, dense id */
    uint64_t *ci;
    uint32_t *kids;
    const uint16_t **vp;  /* one-pass solve: where each child's value is */
    size_t capkids;
    Buf ubuf;             /* un-move solve: a candidate's legal plies */
    uint64_t *pk;         /* un-move solve: the predecessors found, block id << 40 | index */
    uint16_t **slot;      /* un-move solve: where their values are */
    size_t cappk;
    uint64_t done, found;
    SvBlock *edge_from, *edge_to;   /* the block edge recorded last (most repeat it) */
    SvBlock *recent[SV_RECENT];     /* blocks found lately */
    unsigned nrecent;
    uint64_t arcs, ends, levels;    /* one-pass solve: distinct children, ended, levels */
    char apart[64];  /* the next thread's fields, written as often, on another cache line */
} SvWork;

typedef void (*SvUnitFn)(struct Sv *, SvWork *, SvUnit *);
typedef int (*SvCallback)(const char *);

typedef struct Sv {
    /* configuration */
    int threads, nperm, arcs_only;
    uint64_t max_memory, max_positions;
    int size[RC_NT], level[RC_NT], carrier[RC_NT], nplace[RC_NT], order[RC_NT];
    int cmp[RC_NC], keycmp[RC_NC];  /* the orders sv_canon compares slots in */
    M *place[RC_NT];
    int64_t shift[RC_NI], low[RC_NI], high[RC_NI];
    int32_t *perm;
    SvImg *ptab;       /* per symmetry, per byte of a mask, per byte value: its image */
    uint8_t *identity; /* per symmetry: whether it moves no cell (sv_alone; sv_canon's loop) */
    M full;
    uint64_t *binom;
    SvRank *ntab;      /* sv_nibbles */
    uint32_t *combo[SV_COMBO_CELLS + 1];  /* sv_combos */
    uint32_t combo_start[(SV_COMBO_CELLS + 1) * (SV_COMBO_CELLS + 2)];
    int bn;
    SvCallback cb;
    /* blocks */
    SvBlock **table, **blocks;
    uint64_t tcap;
    int nblocks, capblocks;
    int cyclic;        /* the blocks' graph may have a cycle: no one-pass solve */
    int overflow;      /* a block has more child blocks than it keeps: no un-move solve */
    int undo, undo_level;  /* solved by un-moves (values per block, as the one-pass solve's) */
    uint64_t tally_room;   /* bytes reachability may take for tallies (sv_tally) */
    uint64_t tally_used;
    uint64_t tally_most;   /* the largest count a tally keeps (below SV_TALLY_MORE) */
    uint64_t tally_arcs;   /* the distinct children the tallies counted */
    void *map;         /* a solution file's mapping (solution_index.c): blocks point into it */
    size_t map_bytes;
    int one_pass;      /* solved block by block without arcs (sv_one_pass) */
    pthread_mutex_t lock;
    /* the graph of the reached positions, by dense id */
    uint64_t ndense, narcs;
    uint8_t *mover, *status, *values;
    uint64_t *offsets;
    uint32_t *arcs, *rem;
    /* a phase run on the threads */
    SvUnit *units;
    size_t nunits, capunits, next_unit;
    SvUnitFn fn;
    int phase;
    uint64_t todo, done_before;
    SvWork work[SV_MAX_THREADS];
    double last, phase_t0, one_pass_t0;
    /* results */
    uint64_t used, peak, positions, terminal;
    int levels, depth;
    double reach_s, retro_s;
    int err;
    char msg[512];
} Sv;

/* ------------------------------------------------------------------ errors, memory */
static void sv_fail(Sv *sv, int code, const char *fmt, ...) {
    int zero = 0;
    if (!__atomic_compare_exchange_n(&sv->err, &zero, code, 0, __ATOMIC_ACQ_REL, __ATOMIC_ACQUIRE))
        return;  /* the first error is the one reported */
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(sv->msg, sizeof sv->msg, fmt, ap);
    va_end(ap);
}

static inline int sv_failed(Sv *sv) { return __atomic_load_n(&sv->err, __ATOMIC_RELAXED); }

/* the machine's memory in bytes (0 if unknown) */
static uint64_t sv_ram(void) {
    long pages = sysconf(_SC_PHYS_PAGES), size = sysconf(_SC_PAGE_SIZE);
    return pages > 0 && size > 0 ? (uint64_t)pages * (uint64_t)size : 0;
}

/* zeroed memory, counted against the cap; large arrays mapped, the largest from a deleted
   temporary file once the solve holds more than half the RAM (so a solve past the RAM pages
   to disk instead of failing; below that, anonymous memory spares the page cache's work).
   Anonymous arrays read at random (`huge`) ask for the kernel's 2 MB pages: a bitset of
   gigabytes otherwise costs a page-table walk on nearly every read; arrays touched sparsely
   (tallies) do not, as each byte touched would make its whole 2 MB resident. */
static void *sv_alloc_as(Sv *sv, size_t bytes, int huge) {
    if (!bytes) bytes = 8;
    uint64_t now = __atomic_add_fetch(&sv->used, bytes, __ATOMIC_RELAXED);
    if (sv->max_memory && now > sv->max_memory) {
        sv_fail(sv, RC_ERR_MEMORY, "the solve would need more than the memory cap (%llu bytes "
                "in use, %llu more asked for)", (unsigned long long)(now - bytes),
                (unsigned long long)bytes);
        __atomic_sub_fetch(&sv->used, bytes, __ATOMIC_RELAXED);
        return NULL;
    }
    void *p = NULL;
    if (bytes >= SV_MAP_BYTES) {
        const char *dir = getenv("TMPDIR");
        char path[4096];
        snprintf(path, sizeof path, "%s/rulecraft-solve-XXXXXX", dir && *dir ? dir : "/tmp");
        int fd = bytes >= SV_FILE_BYTES && now > sv_ram() / 2 ? mkstemp(path) : -1;
        if (fd >= 0) {
            unlink(path);
            if (ftruncate(fd, (off_t)bytes) == 0) {
                p = mmap(NULL, bytes, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
                if (p == MAP_FAILED) p = NULL;
            }
            close(fd);
        }
        if (!p) {
            p = mmap(NULL, bytes, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
            if (p == MAP_FAILED) p = NULL;
#ifdef MADV_HUGEPAGE
            else if (huge) madvise(p, bytes, MADV_HUGEPAGE);  /* advice: refused is no error */
#endif
        }
    } else {
        p = calloc(1, bytes);
    }
    if (!p) {
        sv_fail(sv, RC_ERR_MEMORY, "out of memory");
        __atomic_sub_fetch(&sv->used, bytes, __ATOMIC_RELAXED);
        return NULL;
    }
    uint64_t peak = __atomic_load_n(&sv->peak, __ATOMIC_RELAXED);
    while (now > peak && !__atomic_compare_exchange_n(&sv->peak, &peak, now, 1, __ATOMIC_RELAXED,
                                                       __ATOMIC_RELAXED)) {}
    return p;
}

static void *sv_alloc(Sv *sv, size_t bytes) { return sv_alloc_as(sv, bytes, 1); }

static void sv_free(Sv *sv, void *p, size_t bytes) {
    if (!p) return;
    if (!bytes) bytes = 8;
    if (bytes >= SV_MAP_BYTES) munmap(p, bytes);
    else free(p);
    __atomic_sub_fetch(&sv->used, bytes, __ATOMIC_RELAXED);
}

static double sv_now(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

/* ------------------------------------------------------------------ masks, combinations */
static inline uint64_t sv_c(const Sv *sv, int n, int k) {
    if (k < 0 || n < 0 || k > n) return 0;
    return sv->binom[(size_t)n * (size_t)sv->bn + (size_t)k];
}

/* the largest q' <= q with C(q', i) <= r (C(q', 1) = q'): by halving when k pieces
   searched so cost less than walking down the n cells */
static inline int sv_colex_top(const Sv *sv, uint64_t r, int i, int q, int k, int n) {
    if (i == 1) return (int)r;
    if (k * (32 - __builtin_clz((unsigned)n | 1)) >= n) {
        while (sv_c(sv, q, i) > r) q--;
        return q;
    }
    int lo = i - 1;  /* C(i - 1, i) = 0 */
    while (lo < q) {
        int mid = (lo + q + 1) / 2;
        if (sv_c(sv, mid, i) <= r) lo = mid;
        else q = mid - 1;
    }
    return lo;
}

#if RC_W == 1
/* the bits of `m` at the places of `u`'s cells, packed from bit 0, and back */
static inline uint64_t sv_pext(uint64_t m, uint64_t u) {
#ifdef __BMI2__
    return _pext_u64(m, u);
#else
    uint64_t r = 0;
    for (int k = 0; u; u &= u - 1, k++) if (m & u & -u) r |= (uint64_t)1 << k;
    return r;
#endif
}

static inline uint64_t sv_pdep(uint64_t x, uint64_t u) {
#ifdef __BMI2__
    return _pdep_u64(x, u);
#else
    uint64_t r = 0;
    for (; u && x; u &= u - 1, x >>= 1) if (x & 1) r |= u & -u;
    return r;
#endif
}

/* the colex rank of the cells of `m` (all in `u`) among the cells of `u`: a binomial a
   cell of `m`, or a table lookup per 4 cells of `u` (sv_nibbles) where that is fewer */
static uint64_t sv_colex(const Sv *sv, M m, M u) {
    uint64_t x = sv_pext(m.w[0], u.w[0]), r = 0;
    const SvRank *t = sv->ntab;
    int nibbles = x ? (64 - __builtin_clzll(x) + 3) / 4 : 0;
    if (__builtin_popcountll(x) <= nibbles) {  /* few pieces among many cells: C(cell, i) */
        for (size_t i = 1; x; x &= x - 1, i++)
            r += sv->binom[(size_t)__builtin_ctzll(x) * (size_t)sv->bn + i];
        return r;
    }
    for (int j = 0; j < nibbles; j++) {  /* independent lookups: the loads overlap */
        unsigned nib = (unsigned)(x >> (4 * j) & 15);
        int c = __builtin_popcountll(x & ((((uint64_t)1) << (4 * j)) - 1));
        r += t[((size_t)j * (RC_CELLS + 1) + (size_t)c) * 16 + nib];
    }
    return r;
}

/* the k cells of `u` (n of them) whose colex rank is r */
static M sv_uncolex(const Sv *sv, uint64_t r, int k, int n, M u) {
    M m;
    const uint32_t *tab = n <= SV_COMBO_CELLS ? __atomic_load_n(&sv->combo[n], __ATOMIC_ACQUIRE) : NULL;
    if (tab) {  /* the placements of k pieces start after those of fewer */
        m.w[0] = sv_pdep(tab[sv->combo_start[n * (SV_COMBO_CELLS + 2) + k] + r], u.w[0]);
        return m;
    }
    uint64_t x = 0;
    int q = n - 1;
    for (int i = k; i >= 1; i--) {
        q = sv_colex_top(sv, r, i, q, k, n);
        r -= sv_c(sv, q, i);
        x |= (uint64_t)1 << q;
        q--;
    }
    m.w[0] = sv_pdep(x, u.w[0]);
    return m;
}
#else
/* the colex rank of the cells of `m` (all in `u`) among the cells of `u` */
static uint64_t sv_colex(const Sv *sv, M m, M u) {
    uint64_t r = 0;
    int i = 1, base = 0;
    for (int w = 0; w < RC_W; w++) {
        uint64_t x = m.w[w];
        while (x) {
            int b = __builtin_ctzll(x);
            x &= x - 1;
            int pos = base + __builtin_popcountll(u.w[w] & ((((uint64_t)1) << b) - 1));
            r += sv_c(sv, pos, i++);
        }
        base += __builtin_popcountll(u.w[w]);
    }
    return r;
}

/* the cell of the q-th (from 0) cell of `u` */
static int sv_select(M u, int q) {
    for (int w = 0; w < RC_W; w++) {
        int n = __builtin_popcountll(u.w[w]);
        if (q < n) {
            uint64_t x = u.w[w];
            while (q--) x &= x - 1;
            return 64 * w + __builtin_ctzll(x);
        }
        q -= n;
    }
    return -1;
}

/* the k cells of `u` (n of them) whose colex rank is r */
static M sv_uncolex(const Sv *sv, uint64_t r, int k, int n, M u) {
    M m = m_zero();
    for (int i = k, all = n; i >= 1; i--) {
        int q = sv_colex_top(sv, r, i, n - 1, k, all);
        r -= sv_c(sv, q, i);
        n = q;
        int c = sv_select(u, q);
        m.w[c >> 6] |= (uint64_t)1 << (c & 63);
    }
    return m;
}
#endif

/* one-word boards: every placement of pieces among n cells, listed by piece count, each
   count's in colex order (which is the order of the packed masks as numbers), so an
   unrank is one lookup; the positions of a block are read in index order and so the
   list in order. Made for each n a block places pieces among (under the lock), unless
   it would take more than a 16th of the memory cap (up to 16 MB: a small cap stays for
   the positions); 0 or an error. */
static int sv_combos(Sv *sv, int n) {
#if RC_W == 1
    size_t bytes = ((size_t)1 << n) * sizeof(uint32_t);
    if (n > SV_COMBO_CELLS || sv->combo[n] || (sv->max_memory && bytes > sv->max_memory / 16)) return 0;
    uint32_t *tab = sv_alloc(sv, bytes);
    if (!tab) return RC_ERR_MEMORY;
    uint32_t *at = &sv->combo_start[n * (SV_COMBO_CELLS + 2)], next[SV_COMBO_CELLS + 2];
    at[0] = 0;
    for (int k = 0; k <= n; k++) at[k + 1] = at[k] + (uint32_t)sv_c(sv, n, k);
    memcpy(next, at, sizeof next);
    for (uint32_t x = 0; x < (uint32_t)1 << n; x++) tab[next[__builtin_popcount(x)]++] = x;
    __atomic_store_n(&sv->combo[n], tab, __ATOMIC_RELEASE);
#else
    (void)sv; (void)n;
#endif
    return 0;
}

/* one-word boards: for each 4 packed cells j, each count c of cells chosen below them and
   each nibble, what the nibble's cells add to a colex rank */
static void sv_nibbles(Sv *sv) {
#if RC_W == 1
    size_t n = (size_t)(RC_CELLS + 3) / 4 * (RC_CELLS + 1) * 16;
    sv->ntab = sv_alloc(sv, n * sizeof(SvRank));
    if (!sv->ntab) return;
    for (int j = 0; j < (RC_CELLS + 3) / 4; j++)
        for (int c = 0; c <= RC_CELLS; c++)
            for (int nib = 0; nib < 16; nib++) {
                uint64_t v = 0;
                for (int b = 0, t = 0; b < 4; b++)
                    if (nib >> b & 1) v += sv_c(sv, 4 * j + b, c + ++t);
                sv->ntab[((size_t)j * (RC_CELLS + 1) + (size_t)c) * 16 + (size_t)nib] = (SvRank)v;
            }
#else
    (void)sv;
#endif
}

/* ------------------------------------------------------------------ blocks */
static uint64_t sv_hash(const SvKey *k) {
    const uint64_t *p = (const uint64_t *)k;
    uint64_t h = 0x9E3779B97F4A7C15ULL;
    for (size_t i = 0; i < sizeof *k / 8; i++) {
        h ^= p[i];
        h *= 0xFF51AFD7ED558CCDULL;
        h ^= h >> 32;
    }
    return h;
}

/* the block key of a state; 0, or an error when the index cannot hold it */
static int sv_key_of(Sv *sv, const S *s, SvKey *k) {
    memset(k, 0, sizeof *k);
    for (int t = 0; t < RC_NT; t++) {
        int n = m_pop(s->c[t]);
        if (sv->size[t] > 1) {
            if (n % sv->size[t] || n > sv->size[t]) {
                sv_fail(sv, SV_ERR_INDEX, "piece type %d covers %d cells: the index holds at most "
                        "one piece of a type covering %d cells", t, n, sv->size[t]);
                return SV_ERR_INDEX;
            }
            n /= sv->size[t];
        }
        k->cnt[t] = n;
    }
    for (int j = 0; j < RC_NI; j++) k->v[j] = s->v[j];
    for (int h = 0; h < RC_NC - RC_NT; h++) k->hist[h] = s->c[RC_NT + h];
    return 0;
}

static SvBlock *sv_find(Sv *sv, const SvKey *k, uint64_t h) {
    for (uint64_t i = h & (sv->tcap - 1);; i = (i + 1) & (sv->tcap - 1)) {
        SvBlock *b = __atomic_load_n(&sv->table[i], __ATOMIC_ACQUIRE);
        if (!b) return NULL;
        if (b->hash == h && !memcmp(&b->key, k, sizeof *k)) return b;
    }
}

/* each type's radix (how many ways its pieces stand) and stride; 0 or an error. The type
   placed first (whose rank depends on no other's cells) varies slowest: a ply that leaves
   its pieces where they stand lands in the same stretch of the index, so most children of
   positions read in order are near one another in memory. */
static int sv_shape(Sv *sv, SvBlock *b) {
    int free0 = RC_CELLS, left[RC_NT];
    for (int t = 0; t < RC_NT; t++) left[t] = (int)b->key.cnt[t];
    for (int i = 0; i < RC_NT; i++) {
        int t = sv->order[i], n = (int)b->key.cnt[t], among;
        if (sv->size[t] > 1) { among = sv->nplace[t]; free0 -= n * sv->size[t]; }
        else if (sv->level[t] == 0) { among = free0; free0 -= n; }
        else { among = left[sv->carrier[t]]; left[sv->carrier[t]] -= n; }
        b->radix[t] = sv_c(sv, among, n);
        if (b->radix[t] == 0) {
            sv_fail(sv, SV_ERR_INDEX, "piece type %d has %d pieces where %d places are free "
                    "(pieces sharing a cell at one level)", t, n, among);
            return SV_ERR_INDEX;
        }
        if (sv->size[t] <= 1 && sv_combos(sv, among)) return RC_ERR_MEMORY;
    }
    uint64_t stride = 1;
    for (int i = RC_NT - 1; i >= 0; i--) {
        int t = sv->order[i];
        b->stride[t] = stride;
        if (b->radix[t] > SV_MAX_BLOCK || stride > SV_MAX_BLOCK / b->radix[t]) {
            sv_fail(sv, SV_ERR_INDEX, "one combination of piece counts has more than 2^40 "
                    "placements: too large to index");
            return SV_ERR_INDEX;
        }
        stride *= b->radix[t];
    }
    b->size = stride;
    b->words = (stride + 63) / 64;
    return 0;
}

/* that each int slot holds a value its key field stores (as codec.Codec.pack checks) */
static int sv_check_range(Sv *sv, const SvKey *k) {
    for (int j = 0; j < RC_NI; j++)
        if (k->v[j] < sv->low[j] || k->v[j] > sv->high[j]) {
            sv_fail(sv, SV_ERR_RANGE, "int slot %d holds %lld, outside %lld to %lld", j,
                    (long long)k->v[j], (long long)sv->low[j], (long long)sv->high[j]);
            return SV_ERR_RANGE;
        }
    return 0;
}

static SvBlock *sv_new_block(Sv *sv, const SvKey *k, uint64_t h) {
    if (sv_check_range(sv, k)) return NULL;
    if ((uint64_t)sv->nblocks + 1 > sv->tcap / 2) {
        sv_fail(sv, SV_ERR_BLOCKS, "more than %llu combinations of piece counts, counters and "
                "previous ply: too many to index", (unsigned long long)(sv->tcap / 2));
        return NULL;
    }
    if (sv->nblocks == sv->capblocks) {
        int cap = sv->capblocks ? 2 * sv->capblocks : 256;
        SvBlock **p = realloc(sv->blocks, (size_t)cap * sizeof *p);
        if (!p) { sv_fail(sv, RC_ERR_MEMORY, "out of memory"); return NULL; }
        sv->blocks = p;
        sv->capblocks = cap;
    }
    SvBlock *b = sv_alloc(sv, sizeof *b);
    if (!b) return NULL;
    b->key = *k;
    b->hash = h;
    size_t bytes = 0;
    if (sv_shape(sv, b)) goto fail;
    bytes = (size_t)b->words * 8;
    if (sv->max_memory && sv->used + bytes > sv->max_memory) {  /* a sparse index would do */
        sv_fail(sv, SV_ERR_INDEX, "the bitset of one combination of piece counts would pass the "
                "memory cap");
        goto fail;
    }
    b->reach = sv_alloc(sv, bytes);
    if (!b->reach) goto fail;
    b->id = sv->nblocks;
    b->ended = k->v[RC_OUT] >= 0;
    if (!b->ended && sv->tally_used + b->size <= sv->tally_room) {  /* (under the lock) */
        b->tally = sv_alloc_as(sv, b->size, 0);
        if (!b->tally) goto fail;
        sv->tally_used += b->size;
    }
    sv->blocks[sv->nblocks++] = b;
    return b;
fail:
    sv_free(sv, b->reach, bytes);
    sv_free(sv, b, sizeof *b);
    return NULL;
}

/* the bitset of `b`'s positions reached and not yet expanded, made when reachability
   first puts a position there */
static uint64_t *sv_frontier(Sv *sv, SvBlock *b) {
    uint64_t *f = __atomic_load_n(&b->cur, __ATOMIC_ACQUIRE);
    if (f) return f;
    pthread_mutex_lock(&sv->lock);
    f = b->cur;
    if (!f && !sv_failed(sv)) {
        f = sv_alloc(sv, (size_t)b->words * 8);
        __atomic_store_n(&b->cur, f, __ATOMIC_RELEASE);
    }
    pthread_mutex_unlock(&sv->lock);
    return f;
}

/* that some position of `from` has a child in `to` (for the order of the one-pass solve) */
static void sv_edge(Sv *sv, SvBlock *from, SvBlock *to) {
    if (from == to) {
        __atomic_store_n(&sv->cyclic, 1, __ATOMIC_RELAXED);
        __atomic_store_n(&from->loop, 1, __ATOMIC_RELAXED);
        return;
    }
    int n = __atomic_load_n(&from->nkids, __ATOMIC_ACQUIRE);
    for (int i = 0; i < n; i++) if (from->kids[i] == to) return;
    pthread_mutex_lock(&sv->lock);
    n = from->nkids;
    int i = 0;
    while (i < n && from->kids[i] != to) i++;
    if (i == n) {
        if (n == SV_MAX_KIDS) sv->cyclic = sv->overflow = 1;  /* too many to follow: arcs */
        else {
            from->kids[n] = to;
            __atomic_store_n(&from->nkids, n + 1, __ATOMIC_RELEASE);
        }
    }
    pthread_mutex_unlock(&sv->lock);
}

/* the block of a key, made if new (under the lock; lookups take none) */
static SvBlock *sv_block(Sv *sv, const SvKey *k) {
    uint64_t h = sv_hash(k);
    SvBlock *b = sv_find(sv, k, h);
    if (b) return b;
    pthread_mutex_lock(&sv->lock);
    b = sv_find(sv, k, h);
    if (!b && !sv_failed(sv)) {
        b = sv_new_block(sv, k, h);
        if (b) {
            uint64_t i = h & (sv->tcap - 1);
            while (sv->table[i]) i = (i + 1) & (sv->tcap - 1);
            __atomic_store_n(&sv->table[i], b, __ATOMIC_RELEASE);
        }
    }
    pthread_mutex_unlock(&sv->lock);
    return b;
}

/* ------------------------------------------------------------------ rank, unrank */
static int sv_rank(Sv *sv, const SvBlock *b, const S *s, uint64_t *out) {
    M used0 = m_zero(), riders[RC_NT];
    uint64_t r = 0;
    for (int t = 0; t < RC_NT; t++) riders[t] = m_zero();
    for (int i = 0; i < RC_NT; i++) {
        int t = sv->order[i];
        M m = s->c[t];
        uint64_t rt = 0;
        if (sv->size[t] > 1) {
            if (m_any(m)) {
                int p = 0;
                while (p < sv->nplace[t] && !m_eq(sv->place[t][p], m)) p++;
                if (p == sv->nplace[t] || m_any(m_and(m, used0))) {
                    sv_fail(sv, SV_ERR_INDEX, "piece type %d stands on cells that are not one of "
                            "its placements, or on another piece", t);
                    return SV_ERR_INDEX;
                }
                rt = (uint64_t)p;
                used0 = m_or(used0, m);
            }
        } else {
            M u = sv->level[t] == 0 ? m_andn(sv->full, used0)
                                    : m_andn(s->c[sv->carrier[t]], riders[sv->carrier[t]]);
            if (m_any(m_andn(m, u))) {
                sv_fail(sv, SV_ERR_INDEX, "piece type %d shares a cell with another piece of its "
                        "level, or stands off its carrier", t);
                return SV_ERR_INDEX;
            }
            rt = sv_colex(sv, m, u);
            if (sv->level[t] == 0) used0 = m_or(used0, m);
            else riders[sv->carrier[t]] = m_or(riders[sv->carrier[t]], m);
        }
        r += rt * b->stride[t];
    }
    *out = r;
    return 0;
}

/* the position at index `idx` of block `b` */
static void sv_unrank(const Sv *sv, const SvBlock *b, uint64_t idx, S *s) {
    M used0 = m_zero(), riders[RC_NT];
    for (int t = 0; t < RC_NT; t++) riders[t] = m_zero();
    for (int i = 0; i < RC_NT; i++) {
        int t = sv->order[i], n = (int)b->key.cnt[t];
        uint64_t rt = (idx / b->stride[t]) % b->radix[t];
        M m;
        if (sv->size[t] > 1) {
            m = n ? sv->place[t][rt] : m_zero();
            used0 = m_or(used0, m);
        } else if (sv->level[t] == 0) {
            M u = m_andn(sv->full, used0);
            m = sv_uncolex(sv, rt, n, m_pop(u), u);
            used0 = m_or(used0, m);
        } else {
            int c = sv->carrier[t];
            M u = m_andn(s->c[c], riders[c]);
            m = sv_uncolex(sv, rt, n, m_pop(u), u);
            riders[c] = m_or(riders[c], m);
        }
        s->c[t] = m;
    }
    for (int h = 0; h < RC_NC - RC_NT; h++) s->c[RC_NT + h] = b->key.hist[h];
    for (int j = 0; j < RC_NI; j++) s->v[j] = b->key.v[j];
}

/* ------------------------------------------------------------------ keys, symmetry */
static sv_u128 sv_mask_key(const S *s) {
    sv_u128 k = 0;
    for (int i = 0; i < RC_NC; i++)
        for (int w = 0; w < RC_W; w++)
            if (s->c[i].w[w]) k |= (sv_u128)s->c[i].w[w] << (i * RC_CELLS + 64 * w);
    return k;
}

/* codec.Codec.pack: the cell masks in the low bits, each int slot biased by its low */
static sv_u128 sv_pack(const Sv *sv, const S *s) {
    sv_u128 k = sv_mask_key(s);
    for (int j = 0; j < RC_NI; j++) {
        uint64_t v = (uint64_t)(s->v[j] - sv->low[j]);
        if (v) k |= (sv_u128)v << sv->shift[j];
    }
    return k;
}

/* -1, 0 or 1 as mask `a` is below, equal to or above `b` as a number */
static inline int sv_mcmp(M a, M b) {
    for (int w = RC_W - 1; w >= 0; w--)
        if (a.w[w] != b.w[w]) return a.w[w] < b.w[w] ? -1 : 1;
    return 0;
}

/* sv_canon: the image of `s` under the symmetries that is least, its cell slots compared
   in the order `ord` (a slot's mask as a number). The index compares in sv->cmp: the
   previous ply's cells, then the piece types in the order they are placed (sv_shape), so
   the type that varies slowest in the index decides first; most plies leave it where it
   stands, and then a child of a position in canonical form needs no other image
   (sv_alone). Packed keys (rc_solve_output) compare in sv->keycmp, the last slot first,
   as symmetry.Canonicalizer compares them. */
#if RC_W == 1 && RC_CELLS <= 32 && defined(__AVX2__)
/* Boards of up to 32 cells: the images of a mask under 8 symmetries at once, a lookup of
   8 lanes a byte of the mask (sv_tables: 32 KB per 8 symmetries); the least among the
   lanes still tied is found slot by slot with no branch on the data (the per-symmetry
   loop below mispredicts which image is less about as often as not). */
#define SV_LANES 8

static void sv_canon(const Sv *sv, S *s, const int *ord) {
    if (sv->nperm < 2) return;
    const __m256i lane_bit = _mm256_setr_epi32(1, 2, 4, 8, 16, 32, 64, 128);
    uint32_t best[RC_NC];  /* the least image so far: at first, `s` itself */
    for (int i = 0; i < RC_NC; i++) best[i] = (uint32_t)s->c[i].w[0];
    for (int g = 0; g * SV_LANES < sv->nperm; g++) {
        const uint32_t *t = sv->ptab + (size_t)g * 4 * 256 * SV_LANES;
        uint32_t m[RC_NC], live = 255;
        int cmp = 0;  /* -1: this group's least is below `best` */
        for (int j = 0; j < RC_NC; j++) {
            int i = ord[j];
            uint64_t x = s->c[i].w[0];
            __m256i v = _mm256_or_si256(
                _mm256_or_si256(_mm256_loadu_si256((const __m256i *)(t + (x & 255) * SV_LANES)),
                                _mm256_loadu_si256((const __m256i *)(t + (256 + (x >> 8 & 255)) * SV_LANES))),
                _mm256_or_si256(_mm256_loadu_si256((const __m256i *)(t + (512 + (x >> 16 & 255)) * SV_LANES)),
                                _mm256_loadu_si256((const __m256i *)(t + (768 + (x >> 24 & 255)) * SV_LANES))));
            __m256i dead = _mm256_cmpeq_epi32(_mm256_and_si256(_mm256_set1_epi32((int)live), lane_bit),
                                              _mm256_setzero_si256());
            v = _mm256_or_si256(v, dead);  /* lanes no longer tied: never the least */
            __m256i lo = _mm256_min_epu32(v, _mm256_permute2x128_si256(v, v, 1));
            lo = _mm256_min_epu32(lo, _mm256_shuffle_epi32(lo, 0x4E));
            lo = _mm256_min_epu32(lo, _mm256_shuffle_epi32(lo, 0xB1));
            live &= (uint32_t)_mm256_movemask_ps(_mm256_castsi256_ps(_mm256_cmpeq_epi32(v, lo)));
            m[i] = (uint32_t)_mm256_cvtsi256_si32(lo);
            if (!cmp && m[i] != best[i] && (cmp = m[i] < best[i] ? -1 : 1) > 0) break;
        }
        if (cmp < 0) memcpy(best, m, sizeof best);
    }
    for (int i = 0; i < RC_NC; i++) s->c[i].w[0] = best[i];
}

/* the image of `m` under symmetry q */
static inline M sv_image(const Sv *sv, M m, int q) {
    const uint32_t *t = sv->ptab + (size_t)(q / SV_LANES) * 4 * 256 * SV_LANES + q % SV_LANES;
    uint64_t x = m.w[0];
    M out;
    out.w[0] = (uint64_t)(t[(x & 255) * SV_LANES] | t[(256 + (x >> 8 & 255)) * SV_LANES] |
                          t[(512 + (x >> 16 & 255)) * SV_LANES] | t[(768 + (x >> 24 & 255)) * SV_LANES]);
    return out;
}

/* the tables hold 8 symmetries' images side by side: whole groups of 8 (sv_tables) */
static int sv_table_perms(const Sv *sv) {
    return sv->nperm > SV_LANES ? (sv->nperm + SV_LANES - 1) / SV_LANES * SV_LANES : SV_LANES;
}

static void sv_img_set(Sv *sv, int q, int j, int v, M m) {
    sv->ptab[(((size_t)(q / SV_LANES) * 4 + (size_t)j) * 256 + (size_t)v) * SV_LANES +
             (size_t)(q % SV_LANES)] = (uint32_t)m.w[0];
}
#else
/* the image of `m` under symmetry q: a table lookup a byte (on boards of up to 32 cells,
   4 tables of 32-bit images, which fit the first-level cache for 8 symmetries) */
#if RC_W == 1 && RC_CELLS <= 32
static inline M sv_image(const Sv *sv, M m, int q) {
    const uint32_t *t = sv->ptab + (size_t)q * 4 * 256;
    uint64_t x = m.w[0];
    M out;
    out.w[0] = (uint64_t)(t[x & 255] | t[256 + (x >> 8 & 255)] | t[512 + (x >> 16 & 255)] |
                          t[768 + (x >> 24 & 255)]);
    return out;
}
static void sv_img_set(Sv *sv, int q, int j, int v, M m) {
    sv->ptab[((size_t)q * SV_IMG_BYTES + (size_t)j) * 256 + (size_t)v] = (uint32_t)m.w[0];
}
#else
static inline M sv_image(const Sv *sv, M m, int q) {
    const M *tab = sv->ptab + (size_t)q * SV_IMG_BYTES * 256;
    M out = m_zero();
    for (int w = 0; w < RC_W; w++)
        for (uint64_t x = m.w[w], j = (uint64_t)w * 8; x; x >>= 8, j++)
            if (x & 255) out = m_or(out, tab[j * 256 + (x & 255)]);
    return out;
}
static void sv_img_set(Sv *sv, int q, int j, int v, M m) {
    sv->ptab[((size_t)q * SV_IMG_BYTES + (size_t)j) * 256 + (size_t)v] = m;
}
#endif

/* images are compared from the first slot of `ord`, and most are dropped after it */
static void sv_canon(const Sv *sv, S *s, const int *ord) {
    if (sv->nperm < 2) return;
    M best[RC_NC], img[RC_NC];
    for (int i = 0; i < RC_NC; i++) best[i] = s->c[i];
    for (int q = 0; q < sv->nperm; q++) {
        if (sv->identity[q]) continue;
        int j = 0, cmp = 0;
        for (; j < RC_NC; j++) {
            img[ord[j]] = sv_image(sv, s->c[ord[j]], q);
            if ((cmp = sv_mcmp(img[ord[j]], best[ord[j]])) != 0) break;
        }
        if (cmp < 0) {
            for (int k = 0; k <= j; k++) best[ord[k]] = img[ord[k]];
            for (int k = j + 1; k < RC_NC; k++) best[ord[k]] = sv_image(sv, s->c[ord[k]], q);
        }
    }
    for (int i = 0; i < RC_NC; i++) s->c[i] = best[i];
}

static int sv_table_perms(const Sv *sv) { return sv->nperm ? sv->nperm : 1; }
#endif

static size_t sv_tables_size(const Sv *sv) {
    return (size_t)sv_table_perms(sv) * SV_IMG_BYTES * 256 * sizeof(SvImg);
}

/* each symmetry's image of each byte value of each byte of a mask (see sv_image; a table
   past the last symmetry is the identity's); the orders slots are compared in (sv_canon) */
static void sv_tables(Sv *sv) {
    sv->ptab = sv_alloc(sv, sv_tables_size(sv));
    sv->identity = sv_alloc(sv, (size_t)(sv->nperm ? sv->nperm : 1));
    if (!sv->ptab || !sv->identity) return;
    for (int q = 0; q < sv_table_perms(sv); q++) {
        const int32_t *p = q < sv->nperm ? sv->perm + (size_t)q * RC_CELLS : NULL;
        if (p) {
            sv->identity[q] = 1;
            for (int c = 0; c < RC_CELLS; c++) if (p[c] != c) sv->identity[q] = 0;
        }
        for (int j = 0; j < SV_IMG_BYTES; j++)
            for (int v = 0; v < 256; v++) {
                M m = m_zero();
                for (int b = 0; b < 8; b++) {
                    int c = 8 * j + b;
                    if (!(v >> b & 1) || c >= RC_CELLS) continue;
                    int to = p ? p[c] : c;
                    m.w[to >> 6] |= (uint64_t)1 << (to & 63);
                }
                sv_img_set(sv, q, j, v, m);
            }
    }
    int n = 0;
    for (int i = RC_NC - 1; i >= RC_NT; i--) sv->cmp[n++] = i;
    for (int i = 0; i < RC_NT; i++) sv->cmp[n++] = sv->order[i];
    for (int i = 0; i < RC_NC; i++) sv->keycmp[i] = RC_NC - 1 - i;
}

/* whether `s` (in canonical form) is fixed by no symmetry but the identity in the slot
   compared first: then a child that leaves that slot as it is is in canonical form */
static int sv_alone(const Sv *sv, const S *s) {
    M m = s->c[sv->cmp[0]];
    for (int q = 0; q < sv->nperm; q++)
        if (!sv->identity[q] && m_eq(sv_image(sv, m, q), m)) return 0;
    return 1;
}

/* ------------------------------------------------------------------ bits */
/* each index `i` whose bit is set in words w0 to w1 of `bits`, until the solve fails (the
   body follows; `continue` goes on to the next bit) */
#define SV_EACH_BIT(bits, w0, w1, i)                                                   \
    for (uint64_t wd_ = (w0), x_; wd_ < (w1) && !sv_failed(sv); wd_++)                 \
        for (x_ = (bits)[wd_]; x_; x_ &= x_ - 1)                                       \
            for (uint64_t i = 64 * wd_ + (uint64_t)__builtin_ctzll(x_), once_ = 1; once_; once_ = 0)

static inline int sv_set_bit(uint64_t *a, uint64_t i) {  /* 1 if it was clear */
    uint64_t bit = (uint64_t)1 << (i & 63);
    if (__atomic_load_n(&a[i >> 6], __ATOMIC_RELAXED) & bit) return 0;  /* no locked write */
    return !(__atomic_fetch_or(&a[i >> 6], bit, __ATOMIC_RELAXED) & bit);
}

/* the number of reached positions of `b` before index `i` */
static inline uint64_t sv_local(const SvBlock *b, uint64_t i) {
    uint64_t wd = i >> 6, n = b->prefix[i >> 9];
    for (uint64_t k = wd & ~(uint64_t)7; k < wd; k++) n += (uint64_t)__builtin_popcountll(b->reach[k]);
    return n + (uint64_t)__builtin_popcountll(b->reach[wd] & ((((uint64_t)1) << (i & 63)) - 1));
}

static inline uint64_t sv_dense(const SvBlock *b, uint64_t i) { return b->base + sv_local(b, i); }

static inline size_t sv_prefix_bytes(const SvBlock *b) { return (size_t)((b->words + 7) / 8) * 8; }

/* b->prefix and b->count from its reached positions; 0 or an error */
static int sv_prefix(Sv *sv, SvBlock *b) {
    b->prefix = sv_alloc(sv, sv_prefix_bytes(b));
    if (!b->prefix) return RC_ERR_MEMORY;
    uint64_t run = 0;
    for (uint64_t wd = 0; wd < b->words; wd++) {
        if (!(wd & 7)) b->prefix[wd >> 3] = run;
        run += (uint64_t)__builtin_popcountll(b->reach[wd]);
    }
    b->count = run;
    return 0;
}

/* a terminal position's value for its player to move, from its outcome */
static inline uint8_t sv_end_value(int o, int64_t mover) {
    return o == RC_PLAYERS ? SV_DRAW : o == mover ? SV_WIN : SV_LOSE;
}

/* ------------------------------------------------------------------ threads, progress */
static void sv_count(char *out, size_t n, uint64_t v) {  /* 1234567 -> "1,234,567" */
    char digits[32];
    int len = snprintf(digits, sizeof digits, "%llu", (unsigned long long)v), k = 0;
    for (int i = 0; i < len && (size_t)k + 2 < n; i++) {
        if (i && (len - i) % 3 == 0) out[k++] = ',';
        out[k++] = digits[i];
    }
    out[k] = 0;
}

static uint64_t sv_sum(Sv *sv, size_t field) {
    uint64_t total = 0;
    for (int t = 0; t < sv->threads; t++)
        total += __atomic_load_n((uint64_t *)((char *)&sv->work[t] + field), __ATOMIC_RELAXED);
    return total;
}

/* at most once a second, from the calling thread: progress text to the callback, which may
   ask to stop */
static void sv_tick(Sv *sv, const char *extra) {
    double now = sv_now();
    if (!sv->cb || now - sv->last < 1.0) return;
    sv->last = now;
    char text[400], a[32], b[32], c[32];
    double spent = now - sv->phase_t0;
    uint64_t done = sv_sum(sv, offsetof(SvWork, done));
    double rate = spent > 0 ? (double)done / spent : 0.0;
    sv_count(c, sizeof c, sv->used);
    if (extra) {
        snprintf(text, sizeof text, "native solve: %s (%s bytes)", extra, c);
    } else if (sv->phase == 0) {
        sv_count(a, sizeof a, sv->positions + sv_sum(sv, offsetof(SvWork, found)));
        sv_count(b, sizeof b, done);
        snprintf(text, sizeof text, "native solve: reachability, sweep %d: %s positions found, %s "
                 "expanded (%.0f a second; %s bytes)", sv->depth, a, b, rate, c);
    } else if (sv->phase == 2) {
        uint64_t all = sv->done_before + done;
        double total = now - sv->one_pass_t0, r = total > 0 ? (double)all / total : 0.0;
        sv_count(a, sizeof a, all);
        sv_count(b, sizeof b, sv->todo);
        snprintf(text, sizeof text, "native solve: one pass, %s of %s positions (%.0f a second, "
                 "about %.0f s left; %s bytes)", a, b, r,
                 r > 0 && sv->todo > all ? (double)(sv->todo - all) / r : 0.0, c);
    } else if (sv->phase == 3) {
        sv_count(a, sizeof a, done);
        snprintf(text, sizeof text, "native solve: un-moves, level %d: %s positions taken back "
                 "(%.0f a second; %s bytes)", sv->undo_level + 1, a, rate, c);
    } else {
        sv_count(a, sizeof a, done);
        sv_count(b, sizeof b, sv->ndense);
        double left = rate > 0 && sv->ndense > done ? (double)(sv->ndense - done) / rate : 0.0;
        snprintf(text, sizeof text, "native solve: %s of %s of %s positions (%.0f a second, "
                 "about %.0f s left; %s bytes)", sv->undo ? "children counted" : "arcs", a, b,
                 rate, left, c);
    }
    if (sv->cb(text)) sv_fail(sv, SV_ERR_STOP, "interrupted");
}

static void *sv_thread(void *arg) {
    SvWork *w = arg;
    Sv *sv = w->sv;
    while (!sv_failed(sv)) {
        size_t u = __atomic_fetch_add(&sv->next_unit, 1, __ATOMIC_RELAXED);
        if (u >= sv->nunits) break;
        sv->fn(sv, w, &sv->units[u]);
        if (w->tid == 0) sv_tick(sv, NULL);
    }
    return NULL;
}

/* `fn` over every unit, on the threads; the per-thread counters start at zero */
static void sv_run(Sv *sv, SvUnitFn fn) {
    pthread_t tid[SV_MAX_THREADS];
    int made[SV_MAX_THREADS] = {0};
    sv->fn = fn;
    sv->next_unit = 0;
    sv->phase_t0 = sv_now();
    for (int t = 0; t < sv->threads; t++) sv->work[t].done = sv->work[t].found = 0;
    for (int t = 1; t < sv->threads; t++) made[t] = !pthread_create(&tid[t], NULL, sv_thread, &sv->work[t]);
    sv_thread(&sv->work[0]);
    for (int t = 1; t < sv->threads; t++) {
        if (made[t]) pthread_join(tid[t], NULL);
        else sv_thread(&sv->work[t]);  /* a thread that could not start: its share here */
    }
}

/* the units of the blocks: all of them (height -2), those with frontier bits (-1), or the
   blocks of one height that are not ended */
static int sv_units(Sv *sv, int height) {
    sv->nunits = 0;
    for (int i = 0; i < sv->nblocks; i++) {
        SvBlock *b = sv->blocks[i];
        if (height == -1 && !b->cur_any) continue;
        if (height >= 0 && (b->height != height || b->ended)) continue;
        for (uint64_t w = 0; w < b->words; w += SV_UNIT_WORDS) {
            if (sv->nunits == sv->capunits) {
                size_t cap = sv->capunits ? 2 * sv->capunits : 1024;
                SvUnit *p = realloc(sv->units, cap * sizeof *p);
                if (!p) { sv_fail(sv, RC_ERR_MEMORY, "out of memory"); return RC_ERR_MEMORY; }
                sv->units = p;
                sv->capunits = cap;
            }
            SvUnit u = {b, w, w + SV_UNIT_WORDS < b->words ? w + SV_UNIT_WORDS : b->words, NULL, 0, 0};
            sv->units[sv->nunits++] = u;
        }
    }
    return 0;
}

/* ------------------------------------------------------------------ reachability */
/* the block and index of a state, put in canonical form unless it is (`canonical`); NULL
   on an error */
static SvBlock *sv_locate(Sv *sv, SvWork *w, S *s, uint64_t *idx, int canonical) {
    SvKey k;
    if (!canonical) sv_canon(sv, s, sv->cmp);
    if (sv_key_of(sv, s, &k)) return NULL;
    SvBlock *b = NULL;
    for (int r = 0; r < SV_RECENT && w && !b; r++)  /* most children fall in a few blocks */
        if (w->recent[r] && !memcmp(&w->recent[r]->key, &k, sizeof k)) b = w->recent[r];
    if (!b) {
        b = sv_block(sv, &k);
        if (w && b) w->recent[w->nrecent++ % SV_RECENT] = b;
    }
    if (!b || sv_rank(sv, b, s, idx)) return NULL;
    __builtin_prefetch(&b->reach[*idx >> 6]);  /* read once all the children are known */
    if (b->prefix) __builtin_prefetch(&b->prefix[*idx >> 9]);
    return b;
}

/* the children of `s` (in canonical form; one a legal ply, in order) located in w->cb,
   w->ci; their number, or -1 after an error */
static int sv_children(Sv *sv, SvWork *w, const S *s) {
    int n = rc_legal(s, &w->buf);
    if (n < 0) { sv_fail(sv, n, "the rules stopped on an error"); return -1; }
    if ((size_t)n > w->capkids) {
        SvBlock **cb = realloc(w->cb, (size_t)n * sizeof *cb);
        if (cb) w->cb = cb;
        uint64_t *ci = realloc(w->ci, (size_t)n * sizeof *ci);
        if (ci) w->ci = ci;
        uint32_t *kids = realloc(w->kids, (size_t)n * sizeof *kids);
        if (kids) w->kids = kids;
        const uint16_t **vp = realloc(w->vp, (size_t)n * sizeof *vp);
        if (vp) w->vp = vp;
        if (!cb || !ci || !kids || !vp) { sv_fail(sv, RC_ERR_MEMORY, "out of memory"); return -1; }
        w->capkids = (size_t)n;
    }
    int alone = sv->nperm > 1 && sv_alone(sv, s), first = sv->cmp[0];
    for (int a = 0; a < n; a++) {
        S t;
        int e = rc_apply(s, &w->buf.a[a], &t);
        if (e < 0) { sv_fail(sv, e, "the rules stopped on an error"); return -1; }
        w->cb[a] = sv_locate(sv, w, &t, &w->ci[a], alone && m_eq(t.c[first], s->c[first]));
        if (!w->cb[a]) return -1;
    }
    return n;
}

static int sv_cmp_u64(const void *a, const void *b) {
    uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
    return (x > y) - (x < y);
}

/* `k` sorted: by insertion when short (qsort's calls cost more there) */
static void sv_sort_u64(uint64_t *k, size_t n) {
    if (n > 24) {
        qsort(k, n, sizeof *k, sv_cmp_u64);
        return;
    }
    for (size_t a = 1; a < n; a++) {
        uint64_t x = k[a];
        size_t j = a;
        while (j > 0 && k[j - 1] > x) { k[j] = k[j - 1]; j--; }
        k[j] = x;
    }
}

/* how many distinct children (the arcs the retrograde solve would keep); ci is reused */
static uint64_t sv_distinct(SvWork *w, int n) {
    uint64_t *k = w->ci;
    for (int a = 0; a < n; a++) k[a] |= (uint64_t)w->cb[a]->id << 40;
    sv_sort_u64(k, (size_t)n);
    uint64_t m = 0;
    for (int a = 0; a < n; a++) if (a == 0 || k[a] != k[a - 1]) m++;
    return m;
}

/* an expanded position's count of distinct children, kept for the un-move solve while
   reachability has its children at hand (the counting pass then has none to make): a byte
   a position of the block's index, SV_TALLY_MORE when more (counted again) */
static inline void sv_tally(const Sv *sv, SvWork *w, SvBlock *b, uint64_t i, int n) {
    uint64_t m = n ? sv_distinct(w, n) : 0;
    w->arcs += m;
    b->tally[i] = m <= sv->tally_most ? (uint8_t)m : SV_TALLY_MORE;
}

/* the tallies let go (a solve that does not use them) */
static void sv_untally_all(Sv *sv) {
    for (int k = 0; k < sv->nblocks; k++) {
        sv_free(sv, sv->blocks[k]->tally, sv->blocks[k]->size);
        sv->blocks[k]->tally = NULL;
    }
}

/* reachability: position `i` of `b` expanded, its children not reached before marked to
   be */
static void sv_expand(Sv *sv, SvWork *w, SvBlock *b, uint64_t i) {
    S s;
    sv_unrank(sv, b, i, &s);
    w->done++;
    int o = rc_outcome(&s);
    if (o >= 0) {
        if (b->tally) b->tally[i] = (uint8_t)(SV_TALLY_END + sv_end_value(o, s.v[RC_P]));
        return;
    }
    int n = sv_children(sv, w, &s);
    if (n < 0) return;
    for (int a = 0; a < n; a++) {
        SvBlock *c = w->cb[a];
        if (c != w->edge_to || b != w->edge_from) {
            sv_edge(sv, b, c);
            w->edge_from = b;
            w->edge_to = c;
        }
        if (sv_set_bit(c->reach, w->ci[a])) {
            w->found++;
            if (c->ended) continue;  /* an ended position is not expanded */
            uint64_t *f = sv_frontier(sv, c);
            if (!f) return;
            sv_set_bit(f, w->ci[a]);
            if (!__atomic_load_n(&c->cur_any, __ATOMIC_RELAXED))
                __atomic_store_n(&c->cur_any, 1, __ATOMIC_RELAXED);
        }
    }
    if (b->tally) sv_tally(sv, w, b, i, n);
}

/* the positions of a unit waiting to be expanded, expanded: each word's bits taken at
   once (those set meanwhile wait for the next sweep) */
static void sv_expand_unit(Sv *sv, SvWork *w, SvUnit *u) {
    SvBlock *b = u->b;
    for (uint64_t wd = u->w0; wd < u->w1; wd++) {
        uint64_t x = __atomic_load_n(&b->cur[wd], __ATOMIC_RELAXED);
        if (x) __atomic_fetch_and(&b->cur[wd], ~x, __ATOMIC_RELAXED);
        for (; x && !sv_failed(sv); x &= x - 1)
            sv_expand(sv, w, b, 64 * wd + (uint64_t)__builtin_ctzll(x));
    }
    if (sv->max_positions && sv->positions + sv_sum(sv, offsetof(SvWork, found)) > sv->max_positions)
        sv_fail(sv, SV_ERR_POSITIONS, "more than %llu positions are reachable",
                (unsigned long long)sv->max_positions);
}

static void sv_reach(Sv *sv, const S *start) {
    S s = *start;
    uint64_t i;
    SvBlock *b = sv_locate(sv, NULL, &s, &i, 0);
    if (!b) return;
    sv_set_bit(b->reach, i);
    b->cur = sv_alloc(sv, (size_t)b->words * 8);
    if (!b->cur) return;
    sv_set_bit(b->cur, i);
    b->cur_any = 1;
    sv->positions = 1;
    sv->phase = 0;
    /* sweeps over the blocks with positions waiting (one bitset each: what a sweep finds
       is expanded in it or the next), until one finds nothing new */
    for (sv->depth = 0; !sv_failed(sv); sv->depth++) {
        if (sv_units(sv, -1) || sv->nunits == 0) break;
        for (int k = 0; k < sv->nblocks; k++) sv->blocks[k]->cur_any = 0;
        sv_run(sv, sv_expand_unit);
        if (sv_failed(sv)) break;
        sv->positions += sv_sum(sv, offsetof(SvWork, found));
        if (sv->max_positions && sv->positions > sv->max_positions) {
            sv_fail(sv, SV_ERR_POSITIONS, "more than %llu positions are reachable",
                    (unsigned long long)sv->max_positions);
            break;
        }
    }
    for (int k = 0; k < sv->nblocks; k++) {  /* the frontiers are done with */
        SvBlock *c = sv->blocks[k];
        sv_free(sv, c->cur, (size_t)c->words * 8);
        c->cur = NULL;
        c->cur_any = 0;
    }
}

/* ------------------------------------------------------------------ the graph */
static void sv_dense_ids(Sv *sv) {
    uint64_t total = 0;
    for (int k = 0; k < sv->nblocks && !sv_failed(sv); k++) {
        SvBlock *b = sv->blocks[k];
        if (!b->prefix && sv_prefix(sv, b)) return;
        b->base = total;
        total += b->count;
    }
    sv->ndense = total;
    if (total >= UINT32_MAX)
        sv_fail(sv, SV_ERR_POSITIONS, "%llu positions: the native solver numbers them in 32 bits",
                (unsigned long long)total);
}

static int sv_cmp_u32(const void *a, const void *b) {
    uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;
    return (x > y) - (x < y);
}

/* each reached position's mover, status and distinct children, in the unit's arc buffer */
static void sv_arcs_unit(Sv *sv, SvWork *w, SvUnit *u) {
    SvBlock *b = u->b;
    SV_EACH_BIT(b->reach, u->w0, u->w1, i) {
        uint64_t d = sv_dense(b, i);
        S s;
        sv_unrank(sv, b, i, &s);
        w->done++;
        sv->mover[d] = (uint8_t)s.v[RC_P];
        int o = rc_outcome(&s);
        if (o >= 0) {
            sv->status[d] = sv_end_value(o, s.v[RC_P]);
            sv->offsets[d + 1] = 0;
            continue;
        }
        int n = sv_children(sv, w, &s);
        if (n < 0) return;
        for (int a = 0; a < n; a++) w->kids[a] = (uint32_t)sv_dense(w->cb[a], w->ci[a]);
        qsort(w->kids, (size_t)n, sizeof *w->kids, sv_cmp_u32);
        int m = 0;
        for (int a = 0; a < n; a++)
            if (m == 0 || w->kids[a] != w->kids[m - 1]) w->kids[m++] = w->kids[a];
        if (u->narcs + (uint64_t)m > u->cap) {
            uint64_t cap = u->cap ? 2 * u->cap : 4096;
            while (cap < u->narcs + (uint64_t)m) cap *= 2;
            uint32_t *p = realloc(u->arcs, (size_t)cap * sizeof *p);
            if (!p) { sv_fail(sv, RC_ERR_MEMORY, "out of memory"); return; }
            __atomic_add_fetch(&sv->used, (cap - u->cap) * sizeof *p, __ATOMIC_RELAXED);
            u->arcs = p;
            u->cap = cap;
        }
        memcpy(u->arcs + u->narcs, w->kids, (size_t)m * sizeof *w->kids);
        u->narcs += (uint64_t)m;
        sv->offsets[d + 1] = (uint64_t)m;
    }
    if (sv->max_memory && sv->used > sv->max_memory)
        sv_fail(sv, RC_ERR_MEMORY, "the solve would need more than the memory cap (%llu bytes "
                "in use)", (unsigned long long)sv->used);
}

static void sv_graph(Sv *sv) {
    uint64_t n = sv->ndense;
    sv->mover = sv_alloc(sv, n);
    sv->status = sv_alloc(sv, n);
    sv->offsets = sv_alloc(sv, (n + 1) * 8);
    if (sv_failed(sv) || sv_units(sv, -2)) return;
    sv->phase = 1;
    sv_run(sv, sv_arcs_unit);
    if (sv_failed(sv)) return;
    for (uint64_t d = 0; d < n; d++) sv->offsets[d + 1] += sv->offsets[d];
    sv->narcs = sv->offsets[n];
    sv->arcs = sv_alloc(sv, sv->narcs * 4);
    uint64_t at = 0;
    for (size_t k = 0; k < sv->nunits; k++) {
        SvUnit *u = &sv->units[k];
        if (sv->arcs && u->narcs) memcpy(sv->arcs + at, u->arcs, (size_t)u->narcs * 4);
        at += u->narcs;
        __atomic_sub_fetch(&sv->used, u->cap * 4, __ATOMIC_RELAXED);
        free(u->arcs);
        u->arcs = NULL;
        u->narcs = u->cap = 0;
    }
}

/* ------------------------------------------------------------------ the one-pass solve */
/* Each block's height (0: no child blocks; else one more than its highest child block);
   0, or 1 when the blocks' graph has a cycle. */
static int sv_heights(Sv *sv) {
    int n = sv->nblocks, done = 0;
    int *left = calloc((size_t)n + 1, sizeof *left), *start = calloc((size_t)n + 2, sizeof *start);
    int *parents = NULL, *queue = calloc((size_t)n + 1, sizeof *queue);
    size_t edges = 0;
    for (int k = 0; k < n; k++) edges += (size_t)sv->blocks[k]->nkids;
    parents = calloc(edges + 1, sizeof *parents);
    if (!left || !start || !parents || !queue) { sv_fail(sv, RC_ERR_MEMORY, "out of memory"); goto out; }
    for (int k = 0; k < n; k++) {
        SvBlock *b = sv->blocks[k];
        left[k] = b->nkids;
        b->height = 0;
        for (int i = 0; i < b->nkids; i++) start[b->kids[i]->id + 1]++;
    }
    for (int k = 0; k < n; k++) start[k + 1] += start[k];
    for (int k = 0; k < n; k++)
        for (int i = 0; i < sv->blocks[k]->nkids; i++) parents[start[sv->blocks[k]->kids[i]->id]++] = k;
    for (int k = n; k > 0; k--) start[k] = start[k - 1];
    start[0] = 0;
    int head = 0, tail = 0;
    for (int k = 0; k < n; k++) if (!left[k]) queue[tail++] = k;
    while (head < tail) {  /* Kahn's order, children first */
        int c = queue[head++];
        done++;
        for (int e = start[c]; e < start[c + 1]; e++) {
            SvBlock *p = sv->blocks[parents[e]];
            if (p->height < sv->blocks[c]->height + 1) p->height = sv->blocks[c]->height + 1;
            if (--left[parents[e]] == 0) queue[tail++] = parents[e];
        }
    }
out:
    free(left); free(start); free(parents); free(queue);
    return done < n;
}

/* a child's value for the player to move in it, and its remoteness */
static inline uint8_t sv_kid_value(const SvBlock *c, uint64_t i, uint32_t *rem) {
    if (c->ended) { *rem = 0; return sv_end_value((int)c->key.v[RC_OUT], c->key.v[RC_P]); }
    uint16_t x = c->val[sv_local(c, i)];
    *rem = x >> 2;
    return (uint8_t)(x & 3);
}

/* position `i` of `b` unranked into `s` and counted, `*out` its value's slot; if it has
   ended, its end value stored there and returned, else 0 */
static inline uint16_t sv_visit(Sv *sv, SvWork *w, SvBlock *b, uint64_t i, S *s, uint16_t **out) {
    sv_unrank(sv, b, i, s);
    w->done++;
    *out = &b->val[sv_local(b, i)];
    int o = rc_outcome(s);
    if (o < 0) return 0;
    w->ends++;
    return **out = sv_end_value(o, s->v[RC_P]);
}

/* the value of each reached position of a unit from its children's, solved before: the
   quickest win, else a draw, else the longest loss (what the retrograde levels give) */
static void sv_solve_unit(Sv *sv, SvWork *w, SvUnit *u) {
    SvBlock *b = u->b;
    SV_EACH_BIT(b->reach, u->w0, u->w1, i) {
        S s;
        uint16_t *out, end = sv_visit(sv, w, b, i, &s, &out);
        if (end) {
            if (end != SV_DRAW && !w->levels) w->levels = 1;
            continue;
        }
        int n = sv_children(sv, w, &s);
        if (n < 0) return;
        uint32_t win = UINT32_MAX, lose = 0, r;
        int draw = 0;
        for (int a = 0; a < n; a++) {  /* where the values are, all asked of memory at once */
            SvBlock *c = w->cb[a];
            w->vp[a] = c->ended ? NULL : &c->val[sv_local(c, w->ci[a])];
            if (w->vp[a]) __builtin_prefetch(w->vp[a]);
        }
        for (int a = 0; a < n; a++) {
            SvBlock *c = w->cb[a];
            uint8_t v;
            if (w->vp[a]) { v = (uint8_t)(*w->vp[a] & 3); r = *w->vp[a] >> 2; }
            else v = sv_kid_value(c, w->ci[a], &r);
            if (v == SV_DRAW) draw = 1;
            else if (!v) { sv_fail(sv, SV_ERR_INDEX, "a child was not solved before its parent"); return; }
            else if ((v == SV_WIN) == (c->key.v[RC_P] == s.v[RC_P])) { if (r < win) win = r; }
            else if (r > lose) lose = r;
        }
        w->arcs += sv_distinct(w, n);
        if (win == UINT32_MAX && draw) { *out = SV_DRAW; continue; }
        uint8_t v = win != UINT32_MAX ? SV_WIN : SV_LOSE;
        r = (v == SV_WIN ? win : lose) + (n > 0);
        if (r > SV_MAX_REM) {
            sv_fail(sv, SV_ERR_INDEX, "a remoteness past %d plies: too long for the one-pass solve",
                    SV_MAX_REM);
            return;
        }
        *out = (uint16_t)(v | r << 2);
        if (r + 1 > w->levels) w->levels = r + 1;
    }
}

/* the blocks solved by increasing height, each in one pass over its reached positions */
static void sv_one_pass(Sv *sv) {
    int top = 0;
    uint64_t todo = 0;
    for (int k = 0; k < sv->nblocks && !sv_failed(sv); k++) {
        SvBlock *b = sv->blocks[k];
        if (sv_prefix(sv, b)) return;
        if (b->height > top) top = b->height;
        if (b->ended) {
            sv->terminal += b->count;
            if (sv->levels < 1 && sv_end_value((int)b->key.v[RC_OUT], b->key.v[RC_P]) != SV_DRAW)
                sv->levels = 1;
        } else {
            b->val = sv_alloc(sv, (size_t)b->count * 2);
            todo += b->count;
        }
        sv->ndense += b->count;
    }
    sv->phase = 2;
    sv->todo = todo;
    sv->done_before = 0;
    sv->one_pass_t0 = sv_now();
    for (int h = 0; h <= top && !sv_failed(sv); h++) {
        if (sv_units(sv, h)) return;
        if (!sv->nunits) continue;
        sv_run(sv, sv_solve_unit);
        for (int t = 0; t < sv->threads; t++) {
            SvWork *w = &sv->work[t];
            sv->narcs += w->arcs;
            sv->terminal += w->ends;
            if ((int)w->levels > sv->levels) sv->levels = (int)w->levels;
            sv->done_before += w->done;
            w->arcs = w->ends = w->levels = 0;
        }
    }
}

/* ------------------------------------------------------------------ un-moves */
/* Cyclic games whose plies can all be taken back (cundo.py: RC_UNDO) are solved without
   arcs, in the one-pass solve's storage: per block, 2 bytes a reached position, holding
   while undecided its count of distinct children not yet known to be bad for its mover,
   then its value | remoteness << 2. A first pass counts the children and finds the ends;
   then level by level from the ends, each position decided at the last level gives its
   predecessors (sv_preds) a win, or one child fewer (a loss when none is left), at the
   next: the levels, values and remoteness of the retrograde solve over arcs. */
#if RC_UNDO
/* the block of position `s` (put in canonical form) and its index there, `*idx`, its bit
   and its count of reached positions before it asked of memory (read by sv_preds and
   sv_take_back); NULL if no block of positions not ended holds it (lookups only: no
   block is made) */
static SvBlock *sv_indexed(Sv *sv, SvWork *w, S *s, uint64_t *idx) {
    SvKey k;
    sv_canon(sv, s, sv->cmp);
    if (sv_key_of(sv, s, &k)) return NULL;
    SvBlock *b = NULL;
    for (int r = 0; r < SV_RECENT && !b; r++)
        if (w->recent[r] && !memcmp(&w->recent[r]->key, &k, sizeof k)) b = w->recent[r];
    if (!b) {
        b = sv_find(sv, &k, sv_hash(&k));
        if (b) w->recent[w->nrecent++ % SV_RECENT] = b;
    }
    if (!b || b->ended || sv_rank(sv, b, s, idx)) return NULL;
    __builtin_prefetch(&b->reach[*idx >> 6]);
    __builtin_prefetch(&b->prefix[*idx >> 9]);
    return b;
}

static int sv_same(const S *a, const S *b) {
    for (int i = 0; i < RC_NC; i++) if (!m_eq(a->c[i], b->c[i])) return 0;
    for (int j = 0; j < RC_NI; j++) if (a->v[j] != b->v[j]) return 0;
    return 1;
}

/* the legal plies of `p` that `rule` may make, in `out` (all of them when a compulsory
   capture decides among the rules); their number, or an error */
static int sv_plies(const S *p, int rule, Buf *out) {
    if (!UNDO_PLAIN) return rc_legal(p, out);
    out->n = 0;
    int64_t ph = p->v[RC_P] * UNDO_NPH + p->v[RC_PH];
    if (ph < 0 || ph >= RC_PLAYERS * UNDO_NPH || !UNDO_TAKES[ph * RC_RULES + rule]) return 0;
    if (rule == RC_RULES - 1) return buf_push(out, act(rule, 0, 0, 0, m_zero())) ? RC_ERR_MEMORY : 1;
    int e = UNDO_MOVES[rule](p, out);
    return e < 0 ? e : out->n;
}

/* `key` (block id << 40 | index) noted as a predecessor, the `*n`-th; -1 on an error */
static int sv_push_pred(Sv *sv, SvWork *w, size_t *n, uint64_t key) {
    if (*n == w->cappk) {
        size_t cap = w->cappk ? 2 * w->cappk : 256;
        uint64_t *pk = realloc(w->pk, cap * sizeof *pk);
        if (pk) w->pk = pk;
        uint16_t **slot = realloc(w->slot, cap * sizeof *slot);
        if (slot) w->slot = slot;
        if (!pk || !slot) { sv_fail(sv, RC_ERR_MEMORY, "out of memory"); return -1; }
        w->cappk = cap;
    }
    w->pk[(*n)++] = key;
    return 0;
}

/* `p` noted as a predecessor of `c` if one of its legal plies of rule `rule` (from cell
   `o` to cell `x`; any, for a pass) leads to `c`; -1 on an error */
static int sv_pred_try(Sv *sv, SvWork *w, S *p, int rule, int o, int x, const S *c, size_t *n) {
    if (rc_outcome(p) >= 0) return 0;
    int k = sv_plies(p, rule, &w->ubuf);
    if (k < 0) return 0;  /* not a position the rules reach: none of them stops on an error */
    for (int a = 0; a < k; a++) {
        const A *ply = &w->ubuf.a[a];
        if (ply->r != rule || (o >= 0 && (ply->x[1] != o || ply->x[2] != x))) continue;
        S t;
        if (rc_apply(p, ply, &t) || !sv_same(&t, c)) continue;
        uint64_t idx;
        SvBlock *b = sv_indexed(sv, w, p, &idx);
        return b ? sv_push_pred(sv, w, n, (uint64_t)b->id << 40 | idx) : 0;
    }
    return 0;
}

/* the positions of `pb` (a block of few positions, sv_few) with a child `kid` (block id
   << 40 | index) noted as predecessors; -1 on an error */
static int sv_few_preds(Sv *sv, SvWork *w, const SvBlock *pb, uint64_t kid, size_t *n) {
    size_t lo = 0, hi = pb->nfew;
    while (lo < hi) {
        size_t mid = (lo + hi) / 2;
        if (pb->few[mid].kid < kid) lo = mid + 1;
        else hi = mid;
    }
    for (; lo < pb->nfew && pb->few[lo].kid == kid; lo++)
        if (sv_push_pred(sv, w, n, (uint64_t)pb->id << 40 | pb->few[lo].at)) return -1;
    return 0;
}

/* the distinct reached predecessors of `c` (index `ci` of block `cb`), in w->pk; their
   number or -1 */
static int sv_preds(Sv *sv, SvWork *w, const SvBlock *cb, uint64_t ci, const S *c) {
    size_t n = 0;
    M occ = m_zero();
    for (int t = 0; t < RC_NT; t++) occ = m_or(occ, c->c[t]);
    for (int q = 0; q < cb->npar; q++) {
        const SvBlock *pb = cb->par[q];
        if (pb->few) {  /* its arcs listed: no candidates to make */
            if (sv_few_preds(sv, w, pb, (uint64_t)cb->id << 40 | ci, &n)) return -1;
            continue;
        }
        S p = *c;
        for (int j = 0; j < RC_NI; j++) p.v[j] = pb->key.v[j];
        for (int h = 0; h < RC_NC - RC_NT; h++) p.c[RC_NT + h] = pb->key.hist[h];
        if (UNDO_PASS) {
            S same = p;
            if (sv_pred_try(sv, w, &same, RC_RULES - 1, -1, -1, c, &n)) return -1;
        }
        if (memcmp(pb->key.cnt, cb->key.cnt, sizeof cb->key.cnt)) continue;
        for (int e = 0; e < UNDO_N; e++) {
            if (UNDO_PLAYER[e] != pb->key.v[RC_P]) continue;
            int t = UNDO_TYPE[e];
            M pieces = c->c[t];
            while (m_any(pieces)) {
                int x = m_poplow(&pieces);
                M from = m_andn(UNDO_REV[(size_t)e * RC_CELLS + (size_t)x], occ);
                while (m_any(from)) {
                    int o = m_poplow(&from);
                    S back = p;
                    back.c[t] = m_or(m_andn(c->c[t], m_bit(x)), m_bit(o));
                    if (sv_pred_try(sv, w, &back, UNDO_RULE[e], o, x, c, &n)) return -1;
                }
            }
        }
    }
    uint64_t *k = w->pk;
    sv_sort_u64(k, n);
    size_t m = 0;
    for (size_t a = 0; a < n; a++) {  /* the distinct ones reachability met */
        const SvBlock *b = sv->blocks[k[a] >> 40];
        uint64_t i = k[a] & (((uint64_t)1 << 40) - 1);
        if ((m == 0 || k[a] != k[m - 1]) && (b->reach[i >> 6] >> (i & 63) & 1)) k[m++] = k[a];
    }
    return (int)m;
}

/* each block's parents, from the children reachability noted; 0 or an error */
static int sv_parents(Sv *sv) {
    for (int k = 0; k < sv->nblocks; k++) sv->blocks[k]->npar = sv->blocks[k]->loop;
    for (int j = 0; j < sv->nblocks; j++)
        for (int i = 0; i < sv->blocks[j]->nkids; i++) sv->blocks[j]->kids[i]->npar++;
    for (int k = 0; k < sv->nblocks; k++) {
        SvBlock *b = sv->blocks[k];
        b->par = calloc((size_t)b->npar + 1, sizeof *b->par);
        if (!b->par) { sv_fail(sv, RC_ERR_MEMORY, "out of memory"); return RC_ERR_MEMORY; }
        b->npar = 0;
        if (b->loop) b->par[b->npar++] = b;
    }
    for (int j = 0; j < sv->nblocks; j++)
        for (int i = 0; i < sv->blocks[j]->nkids; i++) {
            SvBlock *c = sv->blocks[j]->kids[i];
            c->par[c->npar++] = sv->blocks[j];
        }
    return 0;
}

static int sv_cmp_arc(const void *a, const void *b) {
    const SvArc *x = a, *y = b;
    if (x->kid != y->kid) return x->kid < y->kid ? -1 : 1;
    return (x->at > y->at) - (x->at < y->at);
}

/* the arcs of each block of at most SV_FEW positions (a start block, say), sorted by
   child: its positions are found as predecessors by lookup, not by un-moves made for
   every position of its child blocks; 0 or an error */
static int sv_few(Sv *sv) {
    SvWork *w = &sv->work[0];
    for (int k = 0; k < sv->nblocks; k++) {
        SvBlock *b = sv->blocks[k];
        if (b->ended || b->count > SV_FEW) continue;
        size_t n = 0, cap = 16;
        b->few = malloc(cap * sizeof *b->few);
        if (!b->few) { sv_fail(sv, RC_ERR_MEMORY, "out of memory"); return RC_ERR_MEMORY; }
        SV_EACH_BIT(b->reach, 0, b->words, i) {
            S s;
            sv_unrank(sv, b, i, &s);
            int m = rc_outcome(&s) >= 0 ? 0 : sv_children(sv, w, &s);
            if (m < 0) return -1;
            for (int a = 0; a < m; a++) {
                if (n == cap) {  /* (on failure the list so far is let go with the block) */
                    SvArc *p = realloc(b->few, 2 * cap * sizeof *p);
                    if (!p) { sv_fail(sv, RC_ERR_MEMORY, "out of memory"); return RC_ERR_MEMORY; }
                    b->few = p;
                    cap *= 2;
                }
                b->few[n++] = (SvArc){(uint64_t)w->cb[a]->id << 40 | w->ci[a], i};
            }
        }
        qsort(b->few, n, sizeof *b->few, sv_cmp_arc);
        b->nfew = n;
    }
    return sv->err;
}

static inline void sv_mark(SvBlock *b, uint64_t i) {
    sv_set_bit(b->next, i);
    __atomic_store_n(&b->cur_any, 1, __ATOMIC_RELAXED);
}

/* an undecided position's slot: its count `m` of distinct children; a loss with none */
static void sv_set_count(Sv *sv, SvBlock *b, uint64_t i, uint16_t *out, uint64_t m) {
    if (m > SV_MAX_REM) {
        sv_fail(sv, SV_ERR_INDEX, "more than %d distinct children: too many for the un-move "
                "solve", SV_MAX_REM);
        return;
    }
    *out = (uint16_t)(m << 2);
    if (!m) {  /* no legal ply and no end rule fired: the mover loses */
        *out = SV_LOSE;
        sv_mark(b, i);
    }
}

/* the children counted; the positions with no child or ended on the frontier (b->next) */
static void sv_count_unit(Sv *sv, SvWork *w, SvUnit *u) {
    SvBlock *b = u->b;
    if (b->ended || b->tallied) {  /* the frontier of level 0 as they stand (sv_undo); counted */
        for (uint64_t wd = u->w0; wd < u->w1; wd++)
            w->done += (uint64_t)__builtin_popcountll(b->reach[wd]);
        return;
    }
    SV_EACH_BIT(b->reach, u->w0, u->w1, i) {
        S s;
        uint16_t *out, end = sv_visit(sv, w, b, i, &s, &out);
        if (end) {
            if (end != SV_DRAW) sv_mark(b, i);
            continue;
        }
        int n = sv_children(sv, w, &s);
        if (n < 0) return;
        uint64_t m = n ? sv_distinct(w, n) : 0;
        w->arcs += m;
        sv_set_count(sv, b, i, out, m);
    }
}

/* a block's children counts and ends, from its tally, in its values and its frontier of
   level 0 (sv_count_unit's work, without making a child: reachability made them); the
   tally let go */
static void sv_untally(Sv *sv, SvBlock *b) {
    SvWork *w = &sv->work[0];
    uint64_t d = 0;
    SV_EACH_BIT(b->reach, 0, b->words, i) {
        uint8_t code = b->tally[i];
        uint16_t *out = &b->val[d++];
        if (code > SV_TALLY_END) {
            *out = (uint16_t)(code - SV_TALLY_END);
            w->ends++;
            if (*out != SV_DRAW) sv_mark(b, i);
            continue;
        }
        uint64_t m = code;
        if (code == SV_TALLY_MORE) {
            S s;
            sv_unrank(sv, b, i, &s);
            int n = sv_children(sv, w, &s);
            if (n < 0) return;
            m = sv_distinct(w, n);  /* (its arcs are counted: sv_tally) */
        }
        sv_set_count(sv, b, i, out, m);
    }
    sv_free(sv, b->tally, b->size);
    b->tally = NULL;
    b->tallied = 1;
    char text[100];
    snprintf(text, sizeof text, "children counted in reachability: block %d of %d", b->id + 1,
             sv->nblocks);
    sv_tick(sv, text);
}

/* position `i` of `b`, decided at the last level, gives its predecessors their due */
static void sv_take_back(Sv *sv, SvWork *w, SvBlock *b, uint64_t i) {
    uint16_t r1 = (uint16_t)(sv->undo_level + 1);
    S c;
    sv_unrank(sv, b, i, &c);
    w->done++;
    uint32_t rem;
    int c_wins = sv_kid_value(b, i, &rem) == SV_WIN;
    int n = sv_preds(sv, w, b, i, &c);
    if (n < 0) return;
    for (int a = 0; a < n; a++) {  /* where the slots are, all asked of memory at once */
        SvBlock *pb = sv->blocks[w->pk[a] >> 40];
        w->slot[a] = &pb->val[sv_local(pb, w->pk[a] & (((uint64_t)1 << 40) - 1))];
        __builtin_prefetch(w->slot[a]);
    }
    for (int a = 0; a < n; a++) {
        SvBlock *pb = sv->blocks[w->pk[a] >> 40];
        uint64_t pi = w->pk[a] & (((uint64_t)1 << 40) - 1);
        uint16_t *slot = w->slot[a];
        int wins = c_wins == (pb->key.v[RC_P] == c.v[RC_P]);  /* its mover wins by it */
        uint16_t old = __atomic_load_n(slot, __ATOMIC_RELAXED), nv;
        do {
            if (old & 3) break;
            if (wins) nv = (uint16_t)(SV_WIN | r1 << 2);
            else if (old >> 2 == 0) {
                sv_fail(sv, SV_ERR_INDEX, "a predecessor with no child left to refute");
                return;
            } else nv = old >> 2 == 1 ? (uint16_t)(SV_LOSE | r1 << 2) : (uint16_t)(old - 4);
        } while (!__atomic_compare_exchange_n(slot, &old, nv, 0, __ATOMIC_RELAXED,
                                              __ATOMIC_RELAXED));
        if (!(old & 3) && (nv & 3)) sv_mark(pb, pi);
    }
}

/* the positions of a unit decided at the last level taken back, their frontier bits
   cleared as they are read (so the bitset is clear for the level after next) */
static void sv_undo_unit(Sv *sv, SvWork *w, SvUnit *u) {
    SvBlock *b = u->b;
    for (uint64_t wd = u->w0; wd < u->w1 && !sv_failed(sv); wd++) {
        uint64_t x = b->cur[wd];
        if (!x) continue;
        if (!b->ended) b->cur[wd] = 0;  /* (an ended block's frontier is its reach bitset) */
        for (; x && !sv_failed(sv); x &= x - 1)
            sv_take_back(sv, w, b, 64 * wd + (uint64_t)__builtin_ctzll(x));
    }
}

/* the whole solve by un-moves (see above) */
static void sv_undo(Sv *sv) {
    for (int k = 0; k < sv->nblocks && !sv_failed(sv); k++) {
        SvBlock *b = sv->blocks[k];
        if (sv_prefix(sv, b)) return;
        b->cur_any = 0;
        if (b->ended) {
            sv->terminal += b->count;
        } else {
            b->next = sv_alloc(sv, (size_t)b->words * 8);
            b->val = sv_alloc(sv, (size_t)b->count * 2);
            if (b->tally && !sv_failed(sv)) sv_untally(sv, b);  /* one block's both at once */
        }
        sv->ndense += b->count;
    }
    for (int k = 0; k < sv->nblocks && !sv_failed(sv); k++)  /* once the tallies are let go */
        if (!sv->blocks[k]->ended) sv->blocks[k]->cur = sv_alloc(sv, (size_t)sv->blocks[k]->words * 8);
    sv->narcs = sv->tally_arcs;
    if (sv_failed(sv) || sv_parents(sv) || sv_few(sv) || sv_units(sv, -2)) return;
    sv->phase = 1;
    sv->todo = sv->ndense;
    sv_run(sv, sv_count_unit);
    for (int t = 0; t < sv->threads; t++) {
        sv->narcs += sv->work[t].arcs;
        sv->terminal += sv->work[t].ends;
        sv->work[t].arcs = sv->work[t].ends = 0;
    }
    uint64_t solved = 0;
    char text[200], a[32], c[32];
    for (sv->undo_level = 0; !sv_failed(sv); sv->undo_level++) {
        for (int k = 0; k < sv->nblocks; k++) {  /* the frontier: what the last level decided */
            SvBlock *b = sv->blocks[k];
            if (b->ended) {  /* level 0: an ended block's won or lost positions, in place */
                int lost_or_won = sv_end_value((int)b->key.v[RC_OUT], b->key.v[RC_P]) != SV_DRAW;
                b->cur = sv->undo_level == 0 && lost_or_won ? b->reach : NULL;
                b->cur_any = b->cur != NULL;
                continue;
            }
            uint64_t *f = b->cur;  /* clear: sv_undo_unit cleared what it read */
            b->cur = b->next;
            b->next = f;
        }
        if (sv_units(sv, -1)) break;  /* (the frontiers are let go below, as after the last) */
        for (int k = 0; k < sv->nblocks; k++) sv->blocks[k]->cur_any = 0;
        if (!sv->nunits) break;
        if (sv->undo_level + 1 > SV_MAX_REM) {
            sv_fail(sv, SV_ERR_INDEX, "a remoteness past %d plies: too long for the un-move "
                    "solve", SV_MAX_REM);
            break;
        }
        sv->phase = 3;
        sv_run(sv, sv_undo_unit);
        for (int t = 0; t < sv->threads; t++) solved += sv->work[t].done;
        sv_count(a, sizeof a, solved);
        sv_count(c, sizeof c, sv->ndense);
        snprintf(text, sizeof text, "un-move retrograde, level %d: %s of %s decided",
                 sv->undo_level + 1, a, c);
        sv_tick(sv, text);
    }
    sv->levels = sv->undo_level;
    for (int k = 0; k < sv->nblocks; k++) {
        SvBlock *b = sv->blocks[k];
        if (b->ended) {
            b->cur = NULL;
            continue;
        }
        sv_free(sv, b->cur, (size_t)b->words * 8);
        sv_free(sv, b->next, (size_t)b->words * 8);
        b->cur = b->next = NULL;
        for (uint64_t d = 0; d < b->count; d++) if (!(b->val[d] & 3)) b->val[d] = SV_DRAW;
    }
}
#endif

/* ------------------------------------------------------------------ retrograde */
/* level by level from the ends (solver._retrograde): the first win found is the quickest,
   the last child refuted gives the longest loss; what no level decides is a draw */
static void sv_retrograde(Sv *sv) {
    uint64_t n = sv->ndense;
    uint64_t *pstart = sv_alloc(sv, (n + 1) * 8);
    uint32_t *parents = sv_alloc(sv, sv->narcs * 4 + 4);
    uint32_t *left = sv_alloc(sv, n * 4 + 4);
    uint32_t *front = sv_alloc(sv, n * 4 + 4), *next = sv_alloc(sv, n * 4 + 4);
    sv->values = sv_alloc(sv, n + 1);
    sv->rem = sv_alloc(sv, n * 4 + 4);
    if (sv_failed(sv)) goto out;
    sv_tick(sv, "parents");
    for (uint64_t e = 0; e < sv->narcs; e++) pstart[sv->arcs[e] + 1]++;
    for (uint64_t d = 0; d < n; d++) pstart[d + 1] += pstart[d];
    for (uint64_t p = 0; p < n; p++)
        for (uint64_t e = sv->offsets[p]; e < sv->offsets[p + 1]; e++) parents[pstart[sv->arcs[e]]++] = (uint32_t)p;
    for (uint64_t d = n; d > 0; d--) pstart[d] = pstart[d - 1];
    pstart[0] = 0;
    uint64_t nf = 0, solved;
    for (uint64_t d = 0; d < n; d++) {
        left[d] = (uint32_t)(sv->offsets[d + 1] - sv->offsets[d]);
        uint8_t st = sv->status[d];
        if (st) {
            sv->values[d] = st;
            sv->terminal++;
            if (st != SV_DRAW) front[nf++] = (uint32_t)d;
        } else if (left[d] == 0) {  /* no legal ply and no end rule fired: the mover loses */
            sv->values[d] = SV_LOSE;
            front[nf++] = (uint32_t)d;
        }
    }
    solved = nf;
    int level = 0;
    char text[200], a[32], b[32];
    while (nf && !sv_failed(sv)) {
        uint64_t nn = 0;
        uint32_t r1 = (uint32_t)level + 1;
        for (uint64_t f = 0; f < nf; f++) {
            uint32_t c = front[f];
            int c_wins = sv->values[c] == SV_WIN;
            uint8_t mc = sv->mover[c];
            for (uint64_t k = pstart[c]; k < pstart[c + 1]; k++) {
                uint32_t p = parents[k];
                if (sv->values[p]) continue;
                if (c_wins == (sv->mover[p] == mc)) {  /* the parent's mover wins by moving to c */
                    sv->values[p] = SV_WIN;
                    sv->rem[p] = r1;
                    next[nn++] = p;
                } else if (--left[p] == 0) {
                    sv->values[p] = SV_LOSE;
                    sv->rem[p] = r1;
                    next[nn++] = p;
                }
            }
        }
        uint32_t *tmp = front;
        front = next;
        next = tmp;
        nf = nn;
        solved += nn;
        level++;
        sv_count(a, sizeof a, solved);
        sv_count(b, sizeof b, n);
        snprintf(text, sizeof text, "retrograde, level %d: %s of %s decided", level, a, b);
        sv_tick(sv, text);
    }
    sv->levels = level;
    for (uint64_t d = 0; d < n; d++)
        if (!sv->values[d]) sv->values[d] = SV_DRAW;
out:
    sv_free(sv, pstart, (n + 1) * 8);
    sv_free(sv, parents, sv->narcs * 4 + 4);
    sv_free(sv, left, n * 4 + 4);
    sv_free(sv, front, n * 4 + 4);
    sv_free(sv, next, n * 4 + 4);
}

/* ------------------------------------------------------------------ exports */
/* A solver for the start state `st` (flat, as rc_flat_apply takes it). `cfg`, int64s:
   threads, max_memory (0: none), max_positions (0: none), arcs_only (1: never the
   one-pass solve), tally_room (bytes of tallies; -1: half the cap or the RAM), tally_most
   (-1: all a byte keeps), nperm; then per piece type:
   size, level, carrier (-1: none), nplace; then the types in ranking order (carriers
   before riders, wide types first); then per int slot: its shift in a packed key, low,
   high. `perm`: nperm permutations of RC_CELLS cells (cell i -> perm[i]), the identity
   among them. `place`: each wide type's placements in turn, RC_W words each. `full`:
   the board's cells, RC_W words. NULL when out of memory. */
void *rc_solve_new(const int64_t *cfg, const int32_t *perm, const uint64_t *place, const uint64_t *full) {
    Sv *sv = calloc(1, sizeof *sv);
    if (!sv) return NULL;
    int at = 0;
    sv->threads = (int)cfg[at++];
    if (sv->threads < 1) sv->threads = 1;
    if (sv->threads > SV_MAX_THREADS) sv->threads = SV_MAX_THREADS;
    sv->max_memory = (uint64_t)cfg[at++];
    sv->max_positions = (uint64_t)cfg[at++];
    sv->arcs_only = (int)cfg[at++];
    int64_t room = cfg[at++], most = cfg[at++];
    sv->nperm = (int)cfg[at++];
    for (int t = 0; t < RC_NT; t++) {
        sv->size[t] = (int)cfg[at++];
        sv->level[t] = (int)cfg[at++];
        sv->carrier[t] = (int)cfg[at++];
        sv->nplace[t] = (int)cfg[at++];
    }
    for (int t = 0; t < RC_NT; t++) sv->order[t] = (int)cfg[at++];
    for (int j = 0; j < RC_NI; j++) {
        sv->shift[j] = cfg[at++];
        sv->low[j] = cfg[at++];
        sv->high[j] = cfg[at++];
    }
    pthread_mutex_init(&sv->lock, NULL);
    for (int w = 0; w < RC_W; w++) sv->full.w[w] = full[w];
    size_t np = (size_t)(sv->nperm > 0 ? sv->nperm : 1) * RC_CELLS;
    sv->perm = sv_alloc(sv, np * sizeof(int32_t));
    if (sv->perm && sv->nperm > 0) memcpy(sv->perm, perm, (size_t)sv->nperm * RC_CELLS * sizeof(int32_t));
    if (sv->perm) sv_tables(sv);
    for (int t = 0; t < RC_NT; t++) {
        if (sv->size[t] <= 1) continue;
        sv->place[t] = sv_alloc(sv, (size_t)(sv->nplace[t] + 1) * sizeof(M));
        if (!sv->place[t]) break;
        for (int p = 0; p < sv->nplace[t]; p++, place += RC_W)
            for (int w = 0; w < RC_W; w++) sv->place[t][p].w[w] = place[w];
    }
    sv->bn = RC_CELLS;
    for (int t = 0; t < RC_NT; t++) if (sv->nplace[t] > sv->bn) sv->bn = sv->nplace[t];
    sv->bn += 4;  /* sv_nibbles reads up to RC_CELLS + 3 */
    sv->binom = sv_alloc(sv, (size_t)sv->bn * (size_t)sv->bn * 8);
    if (sv->binom)
        for (int n = 0; n < sv->bn; n++)
            for (int k = 0; k <= n; k++) {
                uint64_t v = k == 0 || k == n ? 1 : sv->binom[(size_t)(n - 1) * sv->bn + k - 1] +
                                                    sv->binom[(size_t)(n - 1) * sv->bn + k];
                sv->binom[(size_t)n * sv->bn + k] = v > SV_MAX_BLOCK ? SV_MAX_BLOCK + 1 : v;
            }
    if (sv->binom) sv_nibbles(sv);
    /* the block table cannot grow (lookups take no lock): a sixteenth of the cap, within
       4,096 to 4 million blocks */
    if (RC_UNDO && !sv->arcs_only)
        sv->tally_room = room >= 0 ? (uint64_t)room : (sv->max_memory ? sv->max_memory : sv_ram()) / 2;
    sv->tally_most = most >= 0 && most < SV_TALLY_MORE ? (uint64_t)most : SV_TALLY_MORE - 1;
    sv->tcap = (uint64_t)1 << 22;
    while (sv->max_memory && sv->tcap > 4096 && sv->tcap * sizeof *sv->table > sv->max_memory / 16)
        sv->tcap >>= 1;
    sv->table = sv_alloc(sv, sv->tcap * sizeof *sv->table);
    for (int t = 0; t < SV_MAX_THREADS; t++) { sv->work[t].sv = sv; sv->work[t].tid = t; }
    return sv;
}

/* solve from `st`; 0 or an error (rc_solve_error says what); `cb` gets progress text */
int rc_solve_run(void *h, const uint64_t *st, SvCallback cb) {
    Sv *sv = h;
    if (sv_failed(sv)) return sv->err;
    S s;
    st_in(st, &s);
    sv->cb = cb;
    sv->last = sv_now();
    double t0 = sv_now();
    sv_reach(sv, &s);
    for (int t = 0; t < sv->threads; t++) {  /* what sv_tally counted */
        sv->tally_arcs += sv->work[t].arcs;
        sv->work[t].arcs = 0;
    }
    double t1 = sv_now();
    if (!sv_failed(sv) && !sv->arcs_only && !sv->cyclic && !sv_heights(sv)) {
        sv_untally_all(sv);
        sv->one_pass = 1;
        sv_one_pass(sv);
#if RC_UNDO
    } else if (!sv_failed(sv) && !sv->arcs_only && !sv->overflow) {
        sv->one_pass = sv->undo = 1;  /* the one-pass solve's storage */
        sv_undo(sv);
#endif
    } else {
        sv_untally_all(sv);
        if (!sv_failed(sv)) sv_dense_ids(sv);
        if (!sv_failed(sv)) sv_graph(sv);
        t1 = sv_now();
        if (!sv_failed(sv)) sv_retrograde(sv);
    }
    sv->reach_s = t1 - t0;
    sv->retro_s = sv_now() - t1;
    for (int t = 0; t < SV_MAX_THREADS; t++) {
        buf_free(&sv->work[t].buf);
        free(sv->work[t].kids);
        free(sv->work[t].cb);
        free(sv->work[t].ci);
        free(sv->work[t].vp);
        buf_free(&sv->work[t].ubuf);
        free(sv->work[t].pk);
        free(sv->work[t].slot);
        sv->work[t].pk = NULL;
        sv->work[t].slot = NULL;
        sv->work[t].cappk = 0;
        sv->work[t].vp = NULL;
        sv->work[t].kids = NULL;
        sv->work[t].cb = NULL;
        sv->work[t].ci = NULL;
        sv->work[t].capkids = 0;
    }
    return sv->err;
}

/* the value code and remoteness of index `i` of `b`, once solved */
static uint8_t sv_value_at(const Sv *sv, const SvBlock *b, uint64_t i, uint32_t *rem) {
    if (sv->one_pass) return sv_kid_value(b, i, rem);
    uint64_t d = sv_dense(b, i);
    *rem = sv->rem[d];
    return sv->values[d];
}

static int sv_cmp_rec(const void *a, const void *b) {
    const SvRec *x = a, *y = b;
    if (x->hi != y->hi) return x->hi < y->hi ? -1 : 1;
    return (x->lo > y->lo) - (x->lo < y->lo);
}

/* the solved positions sorted by packed key: key words, value codes, remoteness; 0 or an error */
int rc_solve_output(void *h, uint64_t *lo, uint64_t *hi, uint8_t *values, uint32_t *rem) {
    Sv *sv = h;
    uint64_t n = sv->ndense;
    SvRec *recs = malloc((size_t)(n ? n : 1) * sizeof *recs);
    if (!recs) return RC_ERR_MEMORY;
    uint64_t at = 0;
    for (int k = 0; k < sv->nblocks; k++) {
        SvBlock *b = sv->blocks[k];
        for (uint64_t wd = 0; wd < b->words; wd++) {
            uint64_t x = b->reach[wd];
            while (x) {
                uint64_t i = 64 * wd + (uint64_t)__builtin_ctzll(x);
                x &= x - 1;
                S s;
                sv_unrank(sv, b, i, &s);
                sv_canon(sv, &s, sv->keycmp);  /* the key symmetry.Canonicalizer gives */
                sv_u128 key = sv_pack(sv, &s);
                uint32_t r;
                uint8_t v = sv_value_at(sv, b, i, &r);
                recs[at++] = (SvRec){(uint64_t)key, (uint64_t)(key >> 64), v | r << 2};
            }
        }
    }
    qsort(recs, (size_t)n, sizeof *recs, sv_cmp_rec);
    for (uint64_t q = 0; q < n; q++) {
        lo[q] = recs[q].lo;
        hi[q] = recs[q].hi;
        values[q] = (uint8_t)(recs[q].pay & 3);
        rem[q] = recs[q].pay >> 2;
    }
    free(recs);
    return 0;
}

/* the value code (0: a position the solve did not reach) and remoteness of `st` */
int rc_solve_lookup(void *h, const uint64_t *st, uint32_t *rem) {
    Sv *sv = h;
    S s;
    st_in(st, &s);
    sv_canon(sv, &s, sv->cmp);
    int err = sv->err;  /* a position the index cannot hold is only not held: no error kept */
    SvKey k;
    SvBlock *b = NULL;
    uint64_t i = 0;
    if (!sv_key_of(sv, &s, &k)) b = sv_find(sv, &k, sv_hash(&k));
    if (b && sv_rank(sv, b, &s, &i)) b = NULL;
    if (!err) sv->msg[0] = 0;
    sv->err = err;
    if (!b || !(b->reach[i >> 6] >> (i & 63) & 1)) return 0;
    return sv_value_at(sv, b, i, rem);
}

/* the `d`-th solved position, blocks in order and indices rising (0 <= d < positions), as a
   flat state in `st`; 0, or -1 past the last */
int rc_solve_position(void *h, uint64_t d, uint64_t *st) {
    Sv *sv = h;
    for (int k = 0; k < sv->nblocks; k++) {
        SvBlock *b = sv->blocks[k];
        if (d >= b->count) {
            d -= b->count;
            continue;
        }
        uint64_t lo = 0, hi = (b->words + 7) / 8;  /* the last 8 words whose prefix <= d */
        while (hi - lo > 1) {
            uint64_t mid = lo + (hi - lo) / 2;
            if (b->prefix[mid] <= d) lo = mid; else hi = mid;
        }
        d -= b->prefix[lo];
        uint64_t wd = lo * 8, c;
        while (d >= (c = (uint64_t)__builtin_popcountll(b->reach[wd]))) d -= c, wd++;
        uint64_t x = b->reach[wd];
        while (d--) x &= x - 1;
        S s;
        sv_unrank(sv, b, 64 * wd + (uint64_t)__builtin_ctzll(x), &s);
        st_out(&s, st);
        return 0;
    }
    return -1;
}

/* how many solved positions are wins, losses and draws for their player to move */
void rc_solve_counts(void *h, uint64_t *out) {
    Sv *sv = h;
    out[0] = out[1] = out[2] = 0;
    if (!sv->one_pass) {
        for (uint64_t d = 0; d < sv->ndense; d++) out[sv->values[d] - 1]++;
        return;
    }
    for (int k = 0; k < sv->nblocks; k++) {
        SvBlock *b = sv->blocks[k];
        if (b->ended) out[sv_end_value((int)b->key.v[RC_OUT], b->key.v[RC_P]) - 1] += b->count;
        else for (uint64_t d = 0; d < b->count; d++) out[(b->val[d] & 3) - 1]++;
    }
}

/* positions, arcs, terminal, retrograde levels, peak bytes, reachability depth, positions
   found (when the solve stopped: by the plies it finished), the method (0: arcs, 1: one pass, 2:
   un-moves) */
void rc_solve_stats(void *h, uint64_t *out, double *seconds) {
    Sv *sv = h;
    out[0] = sv->ndense; out[1] = sv->narcs; out[2] = sv->terminal; out[3] = (uint64_t)sv->levels;
    out[4] = sv->peak; out[5] = (uint64_t)sv->depth;
    out[6] = sv->ndense ? sv->ndense : sv->positions;
    out[7] = (uint64_t)(sv->undo ? 2 : sv->one_pass);
    seconds[0] = sv->reach_s; seconds[1] = sv->retro_s;
}

const char *rc_solve_error(void *h) { return ((Sv *)h)->msg; }

void rc_solve_free(void *h) {
    Sv *sv = h;
    if (!sv) return;
    for (int k = 0; k < sv->nblocks; k++) {
        SvBlock *b = sv->blocks[k];
        if (sv->map) b->reach = NULL, b->val = NULL;  /* they are parts of the mapping */
        sv_free(sv, b->reach, (size_t)b->words * 8);
        sv_free(sv, b->cur, (size_t)b->words * 8);
        sv_free(sv, b->next, (size_t)b->words * 8);
        if (b->prefix) sv_free(sv, b->prefix, sv_prefix_bytes(b));
        if (b->val) sv_free(sv, b->val, (size_t)b->count * 2);
        sv_free(sv, b->tally, b->size);
        free(b->few);
        free(b->par);
        sv_free(sv, b, sizeof *b);
    }
    uint64_t n = sv->ndense;
    sv_free(sv, sv->mover, n);
    sv_free(sv, sv->status, n);
    sv_free(sv, sv->offsets, (n + 1) * 8);
    sv_free(sv, sv->arcs, sv->narcs * 4);
    sv_free(sv, sv->values, n + 1);
    sv_free(sv, sv->rem, n * 4 + 4);
    for (size_t k = 0; k < sv->nunits; k++) free(sv->units[k].arcs);
    free(sv->units);
    free(sv->blocks);
    sv_free(sv, sv->table, sv->tcap * sizeof *sv->table);
    sv_free(sv, sv->binom, (size_t)sv->bn * (size_t)sv->bn * 8);
    for (int n = 0; n <= SV_COMBO_CELLS; n++) sv_free(sv, sv->combo[n], ((size_t)1 << n) * sizeof(uint32_t));
    if (sv->ntab) sv_free(sv, sv->ntab, (size_t)(RC_CELLS + 3) / 4 * (RC_CELLS + 1) * 16 * sizeof(SvRank));
    for (int t = 0; t < RC_NT; t++) sv_free(sv, sv->place[t], (size_t)(sv->nplace[t] + 1) * sizeof(M));
    sv_free(sv, sv->perm, (size_t)(sv->nperm > 0 ? sv->nperm : 1) * RC_CELLS * sizeof(int32_t));
    sv_free(sv, sv->ptab, sv_tables_size(sv));
    sv_free(sv, sv->identity, (size_t)(sv->nperm ? sv->nperm : 1));
    if (sv->map) munmap(sv->map, sv->map_bytes);
    pthread_mutex_destroy(&sv->lock);
    free(sv);
}

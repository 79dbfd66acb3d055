/* rulecraft native solver: constants, the solver's types (SvKey, SvBlock, SvWork, Sv),
   errors and memory. One unit of solver.c's translation unit (first; solver.c says what
   the solver does). */

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
/* a terminal position's value for its player to move, from its outcome */
static inline uint8_t sv_end_value(int o, int64_t mover) {
    return o == RC_PLAYERS ? SV_DRAW : o == mover ? SV_WIN : SV_LOSE;
}
#define SV_UNIT_WORDS 64             /* bitset words a thread takes at a time (4096 indices) */
#define SV_MAX_BLOCK ((uint64_t)1 << 40)
#define SV_MAP_BYTES ((size_t)2 << 20)    /* arrays this large are mapped (sv_alloc_as) */
#define SV_FILE_BYTES ((size_t)256 << 20) /* and these may be from a temporary file */
#define SV_NH (RC_NC - RC_NT + 1)    /* the previous ply's cells (+1: never an empty array) */
#define SV_MAX_THREADS 64
#define SV_MAX_KIDS 32               /* child blocks a block may have for the one-pass solve */
#define SV_MAX_REM 16383             /* the one-pass and un-move solves keep remoteness in 14 bits */
#define SV_TURN_BIT 63               /* a child key's bit: the mover changes on the way (sv_distinct) */
#define SV_TURN ((uint64_t)1 << SV_TURN_BIT)
#define SV_ARC_TURN ((uint32_t)1 << 31)  /* the same, of a stored arc (arcs.c) */
#define SV_UNROLL _Pragma("GCC unroll 8")  /* a loop over the piece types, unrolled */
#define SV_RECENT 4                  /* blocks a thread remembers finding */
#define SV_LEAST_BITS 13             /* sv_least_memo remembers 2^this placements */
#define SV_PEND 1024                 /* un-move solve: predecessors found before they are
                                        settled (sv_settle) */
#define SV_AHEAD 16                  /* un-move solve: slots asked of memory ahead of sv_settle */
#define SV_LEADS_BITS 8              /* un-move solve: sv_first_leads remembers 2^this answers */
#define SV_FEW 64                    /* a block with no more positions lists its arcs (sv_few) */
#define SV_COMBO_CELLS 22            /* placements among this many cells unranked by table (sv_combos) */
#define SV_FEW_PIECES 7              /* among more cells, placements of up to this many pieces */
#define SV_FEW_RANK 8                /* ... ranked a binomial a piece (sv_colex), past 32 cells */
#define SV_FEW_PLACES 65536          /* unranked by table when there are at most this many */
#define SV_TALLY_MORE 252            /* a tally byte: more children than it keeps (sv_tally) */
#define SV_TALLY_END 252             /* a tally byte: SV_TALLY_END + an ended position's value */
#define SV_SPARSE_ABOVE ((uint64_t)1 << 16)  /* blocks of more indices start sparse (sparse.c) */
#define SV_DENSE_AT 256              /* a sparse block turns dense past one index in this many */
#define SV_DEFER 1024                /* children a thread gathers before it takes their locks */

enum { SV_ERR_INDEX = -10, SV_ERR_BLOCKS = -11, SV_ERR_STOP = -12, SV_ERR_POSITIONS = -13,
       SV_ERR_RANGE = -15, SV_ERR_DISK = -16 };
#define SV_UNREAD (-20)  /* a file of format 6: its blocks are read in Python (block_file.py) */

typedef unsigned __int128 sv_u128;

/* a symmetry's image of a byte of cells (sv_table_image), per byte of a mask */
#if RC_W == 1 && RC_CELLS <= 32
#define SV_IMG_BYTES 4
typedef uint32_t SvImg;
typedef uint32_t SvRank;            /* a part of a colex rank: C(32, 16) fits 32 bits */
#elif RC_W == 1
#define SV_IMG_BYTES ((RC_CELLS + 7) / 8)
typedef uint64_t SvImg;
typedef uint64_t SvRank;
#else
#define SV_IMG_BYTES (RC_W * 8)
typedef M SvImg;
typedef uint64_t SvRank;
#endif
/* sv_colex's table: what each SV_CHUNK packed cells add to a colex rank, a byte at a time
   where a part fits 32 bits (106 KB for 25 cells; twice as fast as a nibble at a time), else
   a nibble */
#if RC_W == 1 && RC_CELLS <= 32
#define SV_CHUNK 8
#else
#define SV_CHUNK 4
#endif
#define SV_CHUNKS ((RC_CELLS + SV_CHUNK - 1) / SV_CHUNK)
#define SV_CHUNK_TAB ((size_t)SV_CHUNKS * (RC_CELLS + 1) << SV_CHUNK)

typedef struct {  /* what a block is: no padding (memcmp compares it) */
    int64_t cnt[RC_NT];
    int64_t v[RC_NI];
    M hist[SV_NH];
} SvKey;

/* the value of a block's positions if its key says they ended (sv_end_value), else 0 */
static inline int sv_key_end(const SvKey *k) {
    return k->v[RC_OUT] >= 0 ? sv_end_value((int)k->v[RC_OUT], k->v[RC_P]) : 0;
}

typedef struct { uint64_t kid, at; } SvArc;  /* a child (block id << 40 | index), its parent's index */

typedef struct SvBlock {
    SvKey key;
    uint64_t hash, size, words, base;  /* base: the dense id of its first reached position */
    uint64_t radix[RC_NT], stride[RC_NT];
    uint64_t count;                    /* its reached positions */
    int cur_any, id, height, nkids, loop, npar;  /* loop: a child in itself */
    int ended;                         /* its positions' value if they ended (sv_end_value), else 0 */
    struct SvBlock *kids[SV_MAX_KIDS]; /* the blocks its positions' children are in */
    uint8_t kturn[SV_MAX_KIDS + 1];    /* with the players' swap, per child block (the last:
                                          itself) bit 1 << turn for the arcs into it whose
                                          mover changes (turn 1) or not (turn 0) */
    struct SvBlock **par;              /* un-move solve: the blocks with children in it */
    uint8_t *pturn;                    /* un-move solve: each one's kturn for this block */
    uint64_t *reach, *cur, *next;
    uint64_t *later;                   /* every arrangement's solve: decided at level 1 by
                                          its first pass (arrangements.c) */
    struct SvBlock *alike;             /* every arrangement's solve: the block of an earlier
                                          phase whose first pass counts for this one's
                                          (UNDO_ALIKE), or NULL */
    uint64_t *first_at;                /* that block's: per rule, a position with a ply of
                                          it that does not end the game (~0: none seen) */
    uint64_t farcs, fends;             /* the plies and ends its first pass counted */
    uint64_t *prefix;                  /* reached positions before each 8 words of `reach` */
    uint16_t *val;                     /* one-pass solve: value | remoteness << 2, dense */
    uint64_t *runs, nslots, rstride;   /* every arrangement's solve, until its values are
                                          compacted: per rank of the type ranked first, the
                                          slot of its run's first value (arrangements.c);
                                          the slots of val; the run's length */
    uint8_t *tally;                    /* un-move solve: reachability's count (sv_tally) */
    SvArc *few;                        /* un-move solve: a block of few positions, its arcs */
    size_t nfew;
    int tallied;                       /* its children counted from the tally */
    /* a sparse block (sparse.c): its reached positions a hash set in reachability, then a
       rising list; reach, cur and next stay NULL until it turns dense */
    int sparse;                        /* 1 while reachability keeps it hashed */
    int tallying;                      /* its tallies are kept (in the set's slots) */
    pthread_mutex_t mu;                /* a sparse block's lock in reachability */
    uint64_t *hs, hcap, hn;            /* the set: slots of index + 1 | tally << 48; 0 empty */
    uint64_t *add, nadd, capadd;       /* positions found and not yet expanded */
    uint64_t *walk, nwalk, capwalk;    /* those the current sweep expands */
    uint64_t tarcs;                    /* the arcs its tallies counted */
    uint64_t *keys;                    /* after reachability: its reached indices, rising */
    uint64_t *dir, ndir;               /* where the keys of index >> dshift == j begin */
    int dshift;
    int64_t tier;                      /* its tier: a quantity no ply raises (tiers.c) */
    uint64_t abytes;                   /* out of core: its arrays' bytes in the arena (arena.c) */
    int held, want;                    /* out of core: its arrays held (counted), or wanted */
    /* the depth-first solve (depth_first.c): a value | remoteness << 2 per index (a byte,
       or 2 bytes: Sv dfs_wide), in addresses reserved (pages made as they are written:
       one bit each in dtouch) */
    void *dval;
    uint64_t *dtouch, dpages, dn;      /* dn: its positions */
} SvBlock;

/* a thread's share of a phase: words w0 to w1 of a bitset, or when `keys` is set, the
   indices keys[w0] to keys[w1 - 1] (a sparse block's) */
typedef struct { SvBlock *b; uint64_t w0, w1; uint32_t *arcs; uint64_t narcs, cap;
                 const uint64_t *keys; } SvUnit;
typedef struct { uint64_t lo, hi; uint32_t pay; } SvRec;

/* un-move solve: a predecessor waiting to be settled (sv_settle): its value's slot, its
   key (block id << 40 | index), the children (or shares) it is refuted by, and whether its
   mover wins by the position taken back */
typedef struct { uint16_t *slot; uint64_t key; uint16_t by; uint8_t wins; } SvPend;

/* un-move solve: how many plies of an entry's first candidate lead to the position taken
   back, by the pair of blocks (`blocks`: the parent's id << 32 | the position's), the entry
   and whether the players were swapped (`entry`: e << 1 | turned), and the cells of the
   types UNDO_READS names (`cells`); `plies1`, the plies + 1 (0: none remembered) */
typedef struct { uint64_t blocks; M cells[RC_NT]; int entry, plies1; } SvLeads;

struct Sv;
typedef struct SvWork {
    struct Sv *sv;
    int tid;
    Buf buf;
    SvBlock **cb;   /* the children of the position being expanded: block, index, dense id */
    uint64_t *ci;
    uint32_t *kids;
    const uint16_t **vp;  /* one-pass solve: where each child's value is */
    uint8_t *turn;        /* whether the player to move changes on the way to each child */
    size_t capkids;
    Buf ubuf;             /* un-move solve: a candidate's legal plies */
    uint64_t *pk;         /* un-move solve: the predecessors found, block id << 40 | index */
    int cwins;            /* un-move solve: the position taken back is won by its mover */
    int cstab;            /* every arrangement's solve: the symmetries that keep it */
    int calone;           /* un-move solve: the position taken back is in canonical form and
                             no symmetry but the identity keeps its slot compared first (sv_alone_memo) */
    size_t cappk;
    SvPend *pend;         /* un-move solve: the predecessors waiting to be settled */
    size_t npend, cappend;
    uint64_t done, found;
    SvBlock *edge_from, *edge_to;   /* the block edge recorded last (most repeat it) */
    int edge_turn;
    SvBlock *recent[SV_RECENT];     /* blocks found lately */
    SvBlock *hint;                  /* the block of the child located last (sv_children), or
                                       of the predecessor (sv_indexed) */
    uint64_t crt[RC_NT];            /* un-move solve: the ranks of the position whose
                                       predecessors are made (sv_take_back) */
    unsigned nrecent, hit;          /* how many it found, and the one found last (sv_recent) */
    uint64_t least_of[1 << SV_LEAST_BITS];  /* sv_least_memo: cells, and 3 + sv_least (0: none) */
    SvLeads leads[1 << SV_LEADS_BITS];      /* sv_first_leads */
    uint16_t least_is[1 << SV_LEAST_BITS];
    uint64_t arcs, ends, levels;    /* one-pass solve: distinct children, ended, levels */
    SvBlock **defer_b;    /* reachability: children in sparse blocks, their blocks and indices */
    uint64_t *defer_i;
    size_t ndefer;
    int dfs_r;            /* the depth-first solve: how this thread's search ended */
    char apart[64];  /* the next thread's fields, written as often, on another cache line */
} SvWork;

typedef void (*SvUnitFn)(struct Sv *, SvWork *, SvUnit *);
typedef int (*SvCallback)(const char *);

typedef struct Sv {
    /* configuration */
    int threads, nperm, arcs_only, sparse_stays;
    int out_of_core;   /* the blocks in the arena (arena.c): 1 from the start, 0 never, -1 for
                          the one-pass solve once its values would pass the cap */
    int depth_first;   /* try the depth-first solve first (depth_first.c) */
    uint64_t max_memory, max_positions, sparse_above;
    int size[RC_NT], level[RC_NT], carrier[RC_NT], nplace[RC_NT], order[RC_NT];
    int flat;          /* every type a cell a piece, on the board (sv_rank's short way) */
    int cmp[RC_NC], keycmp[RC_NC];  /* the orders sv_canon compares slots in */
    M *place[RC_NT];
    int64_t shift[RC_NI], low[RC_NI], high[RC_NI];
    int32_t *perm;
    int swap;          /* positions with the players exchanged are one (symmetry.c, sv_swap) */
    int swap_type[RC_NT], swap_slot[RC_NI];
    SvImg *stab;       /* the swap's image of each byte value of each byte of a mask */
    SvImg *ptab;       /* per symmetry, per byte of a mask, per byte value: its image */
    uint8_t *pcell;    /* one-word boards: per symmetry, each cell's image (sv_few_image) */
    uint8_t scell[64]; /* ... and the swap's */
    uint8_t *identity; /* per symmetry: whether it moves no cell (sv_least; sv_canon's loop) */
    M cells[RC_NT];    /* per type, the cells it is ranked among (its own and those of the
                          types before it in `order`: dsl/domains.py, native_solve.py) */
    uint64_t *binom;
    SvRank *ctab;      /* sv_chunk_ranks */
#if RC_W == 1 && SV_CHUNK == 4
    uint64_t cfew[SV_FEW_RANK * 64];  /* [(i - 1) * 64 + c]: C(c, i), sv_colex's few pieces */
#endif
    uint32_t *combo[SV_COMBO_CELLS + 1];  /* sv_combos */
    uint32_t combo_start[(SV_COMBO_CELLS + 1) * (SV_COMBO_CELLS + 2)];
    uint64_t *few[64 + 1][SV_FEW_PIECES + 1];  /* [n][k]: sv_few_combos (one-word boards) */
    int bn;
    SvCallback cb;
    /* blocks */
    SvBlock **table, **blocks;
    uint64_t tcap;
    int nblocks, capblocks;
    int cyclic;        /* the blocks' graph may have a cycle: no one-pass solve */
    int overflow;      /* a block has more child blocks than it keeps: no un-move solve */
    int undo, undo_level;  /* solved by un-moves (values per block, as the one-pass solve's) */
    int arrangements;  /* every arrangement solved by un-moves, with no reachability (arrangements.c) */
    uint64_t tally_room;   /* bytes reachability may take for tallies (sv_tally) */
    uint64_t tally_used;
    uint64_t tally_most;   /* the largest count a tally keeps (below SV_TALLY_MORE) */
    uint64_t tally_arcs;   /* the distinct children the tallies counted */
    uint64_t untallied;    /* of those, the ones of tallies let go (counted again) */
    void *map;         /* a solution file's mapping (solution_index.c): blocks point into it */
    size_t map_bytes;
    int one_pass;      /* solved block by block without arcs (sv_one_pass), or depth first */
    int solved_depth_first;  /* by the depth-first solve (its blocks as sv_one_pass leaves them) */
    const S *dfs_start;  /* the depth-first solve's start, and whether a thread gave up */
    int dfs_stop;
    int dfs_wide;        /* its values: 2 bytes each, or 1 (while every remoteness fits) */
    int dfs_overflow;    /* a remoteness did not fit a byte: solved again with 2 */
    unsigned dfs_marks;  /* codes from here up are threads' marks (each value's below) */
    uint8_t *arena;    /* out of core (arena.c): a deleted file mapped as it grows */
    uint64_t arena_bytes, arena_span;  /* the file's size, the addresses reserved */
    int arena_fd;
    pthread_mutex_t arena_mu;
    int64_t tier_weight[RC_NT];  /* a block's tier: the sum of its counts by these */
    int tiered;        /* reachability takes the tiers one at a time (tiers.c) */
    int tiers_help;    /* the cap stopped reachability before a cycle (rc_solve_stats) */
    int64_t tier_now;  /* the tier reachability expands */
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

/* the peak raised to `now` bytes counted, if past it */
static void sv_peak(Sv *sv, uint64_t now) {
    uint64_t peak = __atomic_load_n(&sv->peak, __ATOMIC_RELAXED);
    while (now > peak && !__atomic_compare_exchange_n(&sv->peak, &peak, now, 1, __ATOMIC_RELAXED,
                                                       __ATOMIC_RELAXED)) {}
}

/* `bytes` more counted against the cap; 0, or an error (none counted) */
static int sv_charge(Sv *sv, uint64_t bytes) {
    uint64_t now = __atomic_add_fetch(&sv->used, bytes, __ATOMIC_RELAXED);
    if (sv->max_memory && now > sv->max_memory) {
        sv_fail(sv, RC_ERR_MEMORY, "the solve would need more than the memory cap (%llu bytes "
                "in use, %llu more asked for)", (unsigned long long)(now - bytes),
                (unsigned long long)bytes);
        __atomic_sub_fetch(&sv->used, bytes, __ATOMIC_RELAXED);
        return RC_ERR_MEMORY;
    }
    sv_peak(sv, now);
    return 0;
}

/* zeroed memory, counted against the cap; large arrays mapped, the largest from a deleted
   temporary file once the solve holds more than half the RAM (so a solve past the RAM pages
   to disk instead of failing; below that, anonymous memory spares the page cache's work).
   Anonymous arrays read at random (`huge`) ask for the kernel's 2 MB pages: a bitset of
   gigabytes otherwise costs a page-table walk on nearly every read; arrays touched sparsely
   (tallies) do not, as each byte touched would make its whole 2 MB resident. */
static void *sv_alloc_as(Sv *sv, size_t bytes, int huge) {
    if (!bytes) bytes = 8;
    if (sv_charge(sv, bytes)) return NULL;
    uint64_t now = __atomic_load_n(&sv->used, __ATOMIC_RELAXED);
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
    return p;
}

static void *sv_alloc(Sv *sv, size_t bytes) { return sv_alloc_as(sv, bytes, 1); }

/* array `a` of `*cap` items of `size` bytes with room for `need` (doubling, from
   `first`): the array, moved or not, and `*cap` its room; NULL on an error (kept), `a`
   and `*cap` as they were. (Working arrays of a thread: not counted against the cap.) */
static void *sv_grow(Sv *sv, void *a, size_t *cap, size_t need, size_t size, size_t first) {
    if (need <= *cap) return a;
    size_t c = *cap ? *cap : first;
    while (c < need) c *= 2;
    void *p = realloc(a, c * size);
    if (!p) {
        sv_fail(sv, RC_ERR_MEMORY, "out of memory");
        return NULL;
    }
    *cap = c;
    return p;
}

static void sv_free(Sv *sv, void *p, size_t bytes) {
    if (!p) return;
    if (!bytes) bytes = 8;
    if (bytes >= SV_MAP_BYTES) munmap(p, bytes);
    else free(p);
    __atomic_sub_fetch(&sv->used, bytes, __ATOMIC_RELAXED);
}

/* array `p` of `old` bytes (sv_alloc) cut to its first `bytes`: the array, moved or not;
   NULL on an error (`p` kept). (Only every arrangement's solve cuts one: arrangements.c) */
static __attribute__((unused)) void *sv_shrink(Sv *sv, void *p, size_t old, size_t bytes) {
    if (!bytes) bytes = 8;
    if (bytes >= old) return p;
    if (bytes >= SV_MAP_BYTES) {  /* (old too: its pages past the kept ones unmapped) */
        size_t page = (size_t)sysconf(_SC_PAGESIZE);
        size_t keep = (bytes + page - 1) / page * page, all = (old + page - 1) / page * page;
        if (all > keep) munmap((char *)p + keep, all - keep);
        __atomic_sub_fetch(&sv->used, old - bytes, __ATOMIC_RELAXED);
        return p;
    }
    void *q = sv_alloc(sv, bytes);
    if (!q) return NULL;
    memcpy(q, p, bytes);
    sv_free(sv, p, old);
    return q;
}

static double sv_now(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

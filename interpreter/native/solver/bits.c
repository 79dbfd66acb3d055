/* rulecraft native solver: the blocks' bitsets: reached positions, their counts and dense
   ids. One unit of solver.c's translation unit (after symmetry.c; solver.c says what the
   solver does). */

/* ------------------------------------------------------------------ bits */
static inline int sv_set_bit(uint64_t *a, uint64_t i) {  /* 1 if it was clear */
    uint64_t bit = (uint64_t)1 << (i & 63);
    if (__atomic_load_n(&a[i >> 6], __ATOMIC_RELAXED) & bit) return 0;  /* no locked write */
    return !(__atomic_fetch_or(&a[i >> 6], bit, __ATOMIC_RELAXED) & bit);
}

/* where index `i` is or would go among a sparse block's keys (its local id if reached) */
static inline uint64_t sv_key_place(const SvBlock *b, uint64_t i) {
    uint64_t j = i >> b->dshift, lo = b->dir[j], hi = b->dir[j + 1];
    while (lo < hi) {
        uint64_t mid = lo + (hi - lo) / 2;
        if (b->keys[mid] < i) lo = mid + 1; else hi = mid;
    }
    return lo;
}

/* the number of reached positions of `b` before index `i` (its local id); in every
   arrangement's solve until it compacts them, its value's slot (arrangements.c) */
static inline uint64_t sv_local(const SvBlock *b, uint64_t i) {
    if (b->runs) {
        uint64_t r = i / b->rstride;
        return b->runs[r] + (i - r * b->rstride);
    }
    if (b->keys) return sv_key_place(b, i);
    uint64_t wd = i >> 6, n = b->prefix[i >> 9];
    for (uint64_t k = wd & ~(uint64_t)7; k < wd; k++) n += (uint64_t)__builtin_popcountll(b->reach[k]);
    return n + (uint64_t)__builtin_popcountll(b->reach[wd] & ((((uint64_t)1) << (i & 63)) - 1));
}

/* whether reachability reached index `i` of `b` (once it is over) */
static inline int sv_reached(const SvBlock *b, uint64_t i) {
    if (!b->keys) return (int)(b->reach[i >> 6] >> (i & 63) & 1);
    uint64_t d = sv_key_place(b, i);
    return d < b->count && b->keys[d] == i;
}

/* the bytes of a block's values while it solves (sv_local) */
static inline size_t sv_slot_bytes(const SvBlock *b) { return (size_t)(b->runs ? b->nslots : b->count) * 2; }

/* a block whose bitset and values are in a file not read yet (format 6) */
static inline int sv_unread(const SvBlock *b) { return !b->reach && !b->keys; }

/* the words of a block's frontier bitsets after reachability: a bit an index, or for a
   sparse block a bit a reached position (by local id) */
static inline uint64_t sv_fwords(const SvBlock *b) { return b->keys ? (b->count + 63) / 64 : b->words; }

/* the bytes of a block's tallies: a byte an index, or a reached position when sparse */
static inline size_t sv_tally_bytes(const SvBlock *b) { return (size_t)(b->keys ? b->count : b->size); }

/* ------------------------------------------------------------------ iteration */
typedef struct { const uint64_t *keys, *bits; uint64_t at, end, x, i; } SvIter;

static inline SvIter sv_iter(const uint64_t *keys, const uint64_t *bits, uint64_t w0, uint64_t w1) {
    SvIter it = {keys, bits, w0, w1, 0, 0};
    if (!keys && w0 < w1) it.x = bits[w0];
    return it;
}

static inline int sv_next(SvIter *it) {
    if (it->keys) {
        if (it->at >= it->end) return 0;
        it->i = it->keys[it->at++];
        return 1;
    }
    while (!it->x) {
        if (++it->at >= it->end) return 0;
        it->x = it->bits[it->at];
    }
    it->i = 64 * it->at + (uint64_t)__builtin_ctzll(it->x);
    it->x &= it->x - 1;
    return 1;
}

/* each reached index `i` of a unit, rising, until the solve fails (the body follows;
   `continue` goes on to the next) */
#define SV_EACH_IN_UNIT(u, i)                                                          \
    for (SvIter it_ = sv_iter((u)->keys, (u)->b->reach, (u)->w0, (u)->w1);              \
         !sv_failed(sv) && sv_next(&it_);)                                             \
        for (uint64_t i = it_.i, once_ = 1; once_; once_ = 0)

/* the same over a whole block */
#define SV_EACH_IN_BLOCK(b, i)                                                         \
    for (SvIter it_ = sv_iter((b)->keys, (b)->reach, 0, (b)->keys ? (b)->count : (b)->words); \
         !sv_failed(sv) && sv_next(&it_);)                                             \
        for (uint64_t i = it_.i, once_ = 1; once_; once_ = 0)

static inline uint64_t sv_dense(const SvBlock *b, uint64_t i) { return b->base + sv_local(b, i); }

static inline size_t sv_prefix_bytes(const SvBlock *b) { return (size_t)((b->words + 7) / 8) * 8; }

/* b->prefix and b->count from its reached positions (a sparse block has its count); 0 or
   an error */
static int sv_prefix(Sv *sv, SvBlock *b) {
    if (b->keys) return 0;
    b->prefix = sv_block_alloc(sv, b, sv_prefix_bytes(b));
    if (!b->prefix) return RC_ERR_MEMORY;
    uint64_t run = 0;
    for (uint64_t wd = 0; wd < b->words; wd++) {
        if (!(wd & 7)) b->prefix[wd >> 3] = run;
        run += (uint64_t)__builtin_popcountll(b->reach[wd]);
    }
    b->count = run;
    return 0;
}

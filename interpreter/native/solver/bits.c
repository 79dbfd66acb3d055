/* rulecraft native solver: the blocks' bitsets: reached positions, their counts and dense
   ids. One unit of solver.c's translation unit (after symmetry.c; solver.c says what the
   solver does). */

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

/* rulecraft native solver: combinations: colex ranks of placements among cells, their
   unranking, and the tables that make both lookups. One unit of solver.c's translation
   unit (after arena.c; solver.c says what the solver does). */

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

/* the colex rank of the cells of `m` (all in `u`) among the cells of `u`: a table lookup
   per SV_CHUNK cells of `u` (sv_chunk_ranks), or a binomial a cell of `m` where that is
   fewer. On boards of up to 32 cells, a lookup a byte, all of them (a byte with no piece
   adds 0): with no branch, fewer instructions than choosing the way */
static inline uint64_t sv_colex(const Sv *sv, M m, M u) {
    uint64_t x = sv_pext(m.w[0], u.w[0]), r = 0;
    const SvRank *t = sv->ctab;
#if SV_CHUNK == 8
    size_t c = 0;  /* cells chosen below the byte */
#pragma GCC unroll 4
    for (int j = 0; j < SV_CHUNKS; j++, x >>= 8) {
        r += t[(((size_t)j * (RC_CELLS + 1) + c) << 8) + (x & 255)];
        c += (size_t)__builtin_popcountll(x & 255);
    }
#else
    int k = __builtin_popcountll(x);
    if (k <= SV_FEW_RANK) {  /* few pieces among many cells: C(cell, i), a row a piece */
        for (const uint64_t *row = sv->cfew; x; x &= x - 1, row += 64) r += row[__builtin_ctzll(x)];
        return r;
    }
    int chunks = (64 - __builtin_clzll(x) + SV_CHUNK - 1) / SV_CHUNK;
    if (k <= chunks) {  /* still fewer pieces than chunks */
        for (size_t i = 1; x; x &= x - 1, i++)
            r += sv->binom[(size_t)__builtin_ctzll(x) * (size_t)sv->bn + i];
        return r;
    }
    for (int j = 0; j < chunks; j++) {  /* independent lookups: the loads overlap */
        unsigned part = (unsigned)(x >> (SV_CHUNK * j) & ((1u << SV_CHUNK) - 1));
        int c = __builtin_popcountll(x & ((((uint64_t)1) << (SV_CHUNK * j)) - 1));
        r += t[(((size_t)j * (RC_CELLS + 1) + (size_t)c) << SV_CHUNK) + part];
    }
#endif
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
    const uint64_t *few = k <= SV_FEW_PIECES ? __atomic_load_n(&sv->few[n][k], __ATOMIC_ACQUIRE) : NULL;
    if (few) {
        m.w[0] = sv_pdep(few[r], u.w[0]);
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

/* one-word boards of more than SV_COMBO_CELLS cells: the placements of k pieces (at most
   SV_FEW_PIECES) among n cells in colex order, which is the order of their masks as
   numbers, where there are at most SV_FEW_PLACES of them (3 men among 35 cells: 6,545);
   0 or an error */
#if RC_W == 1
static int sv_few_combos(Sv *sv, int n, int k) {
    uint64_t count = sv_c(sv, n, k);
    if (k < 1 || k > SV_FEW_PIECES || n > 64 || sv->few[n][k] || count > SV_FEW_PLACES) return 0;
    uint64_t *tab = sv_alloc(sv, count * sizeof *tab);
    if (!tab) return RC_ERR_MEMORY;
    uint64_t x = ((uint64_t)1 << k) - 1;
    for (uint64_t i = 0; i < count; i++) {  /* the next mask with k bits (Gosper's) */
        tab[i] = x;
        uint64_t low = x & -x, up = x + low;
        x = up | (((x ^ up) >> 2) / low);
    }
    __atomic_store_n(&sv->few[n][k], tab, __ATOMIC_RELEASE);
    return 0;
}
#endif

/* one-word boards: every placement of pieces among n cells, listed by piece count, each
   count's in colex order (which is the order of the packed masks as numbers), so an
   unrank is one lookup; the positions of a block are read in index order and so the
   list in order. Made for each n a block places pieces among (under the lock), unless
   it would take more than a 16th of the memory cap (up to 16 MB: a small cap stays for
   the positions); past SV_COMBO_CELLS cells, those of its k pieces (sv_few_combos); 0
   or an error. */
static int sv_combos(Sv *sv, int n, int k) {
#if RC_W == 1
    if (n > SV_COMBO_CELLS) return sv_few_combos(sv, n, k);
    size_t bytes = ((size_t)1 << n) * sizeof(uint32_t);
    if (sv->combo[n] || (sv->max_memory && bytes > sv->max_memory / 16)) return 0;
    uint32_t *tab = sv_alloc(sv, bytes);
    if (!tab) return RC_ERR_MEMORY;
    uint32_t *at = &sv->combo_start[n * (SV_COMBO_CELLS + 2)], next[SV_COMBO_CELLS + 2];
    at[0] = 0;
    for (int j = 0; j <= n; j++) at[j + 1] = at[j] + (uint32_t)sv_c(sv, n, j);
    memcpy(next, at, sizeof next);
    for (uint32_t x = 0; x < (uint32_t)1 << n; x++) tab[next[__builtin_popcount(x)]++] = x;
    __atomic_store_n(&sv->combo[n], tab, __ATOMIC_RELEASE);
#else
    (void)sv; (void)n; (void)k;
#endif
    return 0;
}

/* one-word boards: for each SV_CHUNK packed cells j, each count c of cells chosen below
   them and each choice among them, what the chosen cells add to a colex rank */
static void sv_chunk_ranks(Sv *sv) {
#if RC_W == 1
#if SV_CHUNK == 4
    for (int i = 1; i <= SV_FEW_RANK; i++)
        for (int c = 0; c < 64; c++) sv->cfew[(i - 1) * 64 + c] = c < sv->bn ? sv_c(sv, c, i) : 0;
#endif
    sv->ctab = sv_alloc(sv, SV_CHUNK_TAB * sizeof(SvRank));
    if (!sv->ctab) return;
    for (int j = 0; j < SV_CHUNKS; j++)
        for (int c = 0; c <= RC_CELLS; c++)
            for (unsigned part = 0; part < 1u << SV_CHUNK; part++) {
                uint64_t v = 0;
                for (int b = 0, t = 0; b < SV_CHUNK; b++)
                    if (part >> b & 1) v += sv_c(sv, SV_CHUNK * j + b, c + ++t);
                sv->ctab[(((size_t)j * (RC_CELLS + 1) + (size_t)c) << SV_CHUNK) + part] = (SvRank)v;
            }
#else
    (void)sv;
#endif
}

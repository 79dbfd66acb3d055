/* rulecraft native solver: the index: combinations (colex ranks), blocks, rank and unrank.
   One unit of solver.c's translation unit (after base.c; solver.c says what the solver
   does). */

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
    int chunks = x ? (64 - __builtin_clzll(x) + SV_CHUNK - 1) / SV_CHUNK : 0;
    if (__builtin_popcountll(x) <= chunks) {  /* few pieces among many cells: C(cell, i) */
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

/* a type covering several cells with more than one piece: an error (kept apart) */
static __attribute__((noinline, cold)) int sv_key_fail(Sv *sv, int t, int n) {
    sv_fail(sv, SV_ERR_INDEX, "piece type %d covers %d cells: the index holds at most one piece of a "
            "type covering %d cells", t, n, sv->size[t]);
    return SV_ERR_INDEX;
}

/* the block key of a state; 0, or an error when the index cannot hold it */
static inline int sv_key_of(Sv *sv, const S *s, SvKey *k) {
    memset(k, 0, sizeof *k);
    for (int t = 0; t < RC_NT; t++) {
        int n = m_pop(s->c[t]);
        if (sv->size[t] > 1) {
            if (n % sv->size[t] || n > sv->size[t]) return sv_key_fail(sv, t, n);
            n /= sv->size[t];
        }
        k->cnt[t] = n;
    }
    for (int j = 0; j < RC_NI; j++) k->v[j] = s->v[j];
    for (int h = 0; h < RC_NC - RC_NT; h++) k->hist[h] = s->c[RC_NT + h];
    return 0;
}

/* the block of key `k` if it is one of those thread `w` found lately, else NULL: the one
   it found last asked first (a position's children mostly fall in one or two blocks) */
static inline SvBlock *sv_recent(SvWork *w, const SvKey *k) {
    for (unsigned r = 0; r < SV_RECENT; r++) {
        unsigned j = (w->hit + r) % SV_RECENT;
        if (w->recent[j] && !memcmp(&w->recent[j]->key, k, sizeof *k)) {
            w->hit = j;
            return w->recent[j];
        }
    }
    return NULL;
}

/* block `b` remembered among those thread `w` found lately */
static inline void sv_remember(SvWork *w, SvBlock *b) {
    w->hit = w->nrecent++ % SV_RECENT;
    w->recent[w->hit] = b;
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
    int placed0 = 0, left[RC_NT];  /* cells the types ranked so far cover at level 0 */
    for (int t = 0; t < RC_NT; t++) left[t] = (int)b->key.cnt[t];
    for (int i = 0; i < RC_NT; i++) {
        int t = sv->order[i], n = (int)b->key.cnt[t], among;
        if (sv->size[t] > 1) { among = sv->nplace[t]; placed0 += n * sv->size[t]; }
        else if (sv->level[t] == 0) { among = m_pop(sv->cells[t]) - placed0; placed0 += n; }
        else { among = left[sv->carrier[t]]; left[sv->carrier[t]] -= n; }
        b->radix[t] = sv_c(sv, among, n);
        if (b->radix[t] == 0) {
            sv_fail(sv, SV_ERR_INDEX, "piece type %d has %d pieces where %d places are free "
                    "(pieces sharing a cell at one level)", t, n, among);
            return SV_ERR_INDEX;
        }
        if (sv->size[t] <= 1 && sv_combos(sv, among, n)) return RC_ERR_MEMORY;
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

/* that each one-cell type on the board is ranked among cells holding those of the level-0
   types before it in `order` (so that its count of cells free is the same for every
   position of a block); else the solve fails */
static void sv_nested(Sv *sv) {
    M before = m_zero();
    if (sv_failed(sv)) return;  /* (the placements may be missing) */
    for (int i = 0; i < RC_NT; i++) {
        int t = sv->order[i];
        if (sv->level[t]) continue;
        if (sv->size[t] > 1) {
            for (int p = 0; p < sv->nplace[t]; p++) before = m_or(before, sv->place[t][p]);
            continue;
        }
        if (m_any(m_andn(before, sv->cells[t]))) {
            sv_fail(sv, SV_ERR_INDEX, "piece type %d is ranked among cells that leave out some "
                    "of the types ranked before it", t);
            return;
        }
        before = m_or(before, sv->cells[t]);
    }
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
    b->id = sv->nblocks;
    b->ended = k->v[RC_OUT] >= 0;
    for (int t = 0; t < RC_NT; t++) b->tier += sv->tier_weight[t] * k->cnt[t];
    b->held = sv->arena != NULL;  /* reachability holds a block until its tier is done */
    pthread_mutex_init(&b->mu, NULL);
    if (b->size > sv->sparse_above) {  /* its set is made as positions are found (sparse.c) */
        b->sparse = 1;
        b->tallying = !b->ended && sv->tally_room > 0;
        sv->blocks[sv->nblocks++] = b;
        return b;
    }
    bytes = (size_t)b->words * 8;
    b->reach = sv_block_alloc(sv, b, bytes);
    if (!b->reach) goto fail;
    if (!b->ended && sv->tally_used + b->size <= sv->tally_room) {  /* (under the lock) */
        b->tally = sv_alloc_as(sv, b->size, 0);
        if (!b->tally) goto fail;
        sv->tally_used += b->size;
        b->tallying = 1;
    }
    sv->blocks[sv->nblocks++] = b;
    return b;
fail:
    sv_free(sv, b->reach, bytes);
    sv_free(sv, b, sizeof *b);
    return NULL;
}

/* the bitset of dense block `b`'s positions reached and not yet expanded, made when
   reachability first puts a position there */
static uint64_t *sv_frontier(Sv *sv, SvBlock *b) {
    uint64_t *f = __atomic_load_n(&b->cur, __ATOMIC_ACQUIRE);
    if (f) return f;
    pthread_mutex_lock(&sv->lock);
    f = b->cur;
    if (!f && !sv_failed(sv)) {
        f = sv_block_alloc(sv, b, (size_t)b->words * 8);
        __atomic_store_n(&b->cur, f, __ATOMIC_RELEASE);
    }
    pthread_mutex_unlock(&sv->lock);
    return f;
}

/* that some position of `from` has a child in `to` (for the order of the one-pass solve);
   0, or an error when the ply raised the tier (tiered reachability, tiers.c) */
static int sv_edge(Sv *sv, SvBlock *from, SvBlock *to) {
    if (sv->tiered && to->tier > from->tier) {  /* (tiers.c: its blocks may be let go) */
        sv_fail(sv, SV_ERR_INDEX, "a ply raised the tier the model gave (dsl/monotone.py)");
        return SV_ERR_INDEX;
    }
    if (from == to) {
        __atomic_store_n(&sv->cyclic, 1, __ATOMIC_RELAXED);
        __atomic_store_n(&from->loop, 1, __ATOMIC_RELAXED);
        return 0;
    }
    int n = __atomic_load_n(&from->nkids, __ATOMIC_ACQUIRE);
    for (int i = 0; i < n; i++) if (from->kids[i] == to) return 0;
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
    return 0;
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
/* that type `t`'s cells are not a position of the index (sv_rank): off its placements or
   on another piece (`placed`), else off the cells the analysis gave it, or sharing a cell
   or off its carrier; an error (kept apart: the hot loop stays small) */
static __attribute__((noinline, cold)) int sv_rank_fail(Sv *sv, int t, int placed, int off) {
    if (placed)
        sv_fail(sv, SV_ERR_INDEX, "piece type %d stands on cells that are not one of its placements, or "
                "on another piece", t);
    else if (off)
        sv_fail(sv, SV_ERR_INDEX, "piece type %d stands on a cell the analysis of the rules says it "
                "never reaches (dsl/domains.py)", t);
    else
        sv_fail(sv, SV_ERR_INDEX, "piece type %d shares a cell with another piece of its level, or "
                "stands off its carrier", t);
    return SV_ERR_INDEX;
}

/* the colex rank (`*rt`) of type `t`'s pieces `m` among its cells (dsl/domains.py) less
   `used0`, those taken; 0, or an error when one stands elsewhere */
static inline int sv_rank_cells(Sv *sv, int t, M m, M used0, uint64_t *rt) {
    M u = m_andn(sv->cells[t], used0);
    if (m_any(m_andn(m, u))) return sv_rank_fail(sv, t, 0, m_any(m_andn(m, sv->cells[t])));
    *rt = sv_colex(sv, m, u);
    return 0;
}

/* sv_rank where some type covers several cells or rides on another */
static int sv_rank_any(Sv *sv, const SvBlock *b, const S *s, uint64_t *out) {
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
                if (p == sv->nplace[t] || m_any(m_and(m, used0))) return sv_rank_fail(sv, t, 1, 0);
                rt = (uint64_t)p;
                used0 = m_or(used0, m);
            }
        } else if (sv->level[t] == 0) {
            if (sv_rank_cells(sv, t, m, used0, &rt)) return SV_ERR_INDEX;
            used0 = m_or(used0, m);
        } else {
            M u = m_andn(s->c[sv->carrier[t]], riders[sv->carrier[t]]);
            if (m_any(m_andn(m, u))) return sv_rank_fail(sv, t, 0, 0);
            rt = sv_colex(sv, m, u);
            riders[sv->carrier[t]] = m_or(riders[sv->carrier[t]], m);
        }
        r += rt * b->stride[t];
    }
    *out = r;
    return 0;
}

/* the index of `s` in its block `b`; 0, or an error when it is not one of the index */
static inline int sv_rank(Sv *sv, const SvBlock *b, const S *s, uint64_t *out) {
    if (!sv->flat) return sv_rank_any(sv, b, s, out);
    M used0 = m_zero();
    uint64_t r = 0, rt = 0;
    for (int i = 0; i < RC_NT; i++) {
        int t = sv->order[i];
        if (sv_rank_cells(sv, t, s->c[t], used0, &rt)) return SV_ERR_INDEX;
        r += rt * b->stride[t];
        used0 = m_or(used0, s->c[t]);
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
            M u = m_andn(sv->cells[t], used0);
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

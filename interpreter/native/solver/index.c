/* rulecraft native solver: the index: blocks, rank and unrank. One unit of solver.c's
   translation unit (after combos.c; solver.c says what the solver does). */

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
    const int flat = sv->flat;  /* (every field is written below: no memset) */
    SV_UNROLL for (int t = 0; t < RC_NT; t++) {
        int n = m_pop(s->c[t]);
        if (!flat && sv->size[t] > 1) {
            if (n % sv->size[t] || n > sv->size[t]) return sv_key_fail(sv, t, n);
            n /= sv->size[t];
        }
        k->cnt[t] = n;
    }
    for (int j = 0; j < RC_NI; j++) k->v[j] = s->v[j];
    for (int h = 0; h < RC_NC - RC_NT; h++) k->hist[h] = s->c[RC_NT + h];
    k->hist[SV_NH - 1] = m_zero();  /* (the one past them) */
    return 0;
}

/* whether the key of `s` is `k` (sv_key_of's, where it is read off the state without a
   division: every type a cell a piece, sv->flat; else no) */
static inline int sv_key_is(const Sv *sv, const S *s, const SvKey *k) {
    if (!sv->flat) return 0;
    SV_UNROLL for (int t = 0; t < RC_NT; t++) if (m_pop(s->c[t]) != k->cnt[t]) return 0;
    for (int j = 0; j < RC_NI; j++) if (s->v[j] != k->v[j]) return 0;
    for (int h = 0; h < RC_NC - RC_NT; h++) if (!m_eq(s->c[RC_NT + h], k->hist[h])) return 0;
    return 1;
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
    b->ended = sv_key_end(k);
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

/* that some position of `from` has a child in `to` (for the order of the one-pass solve),
   `turn` whether the mover changed on the way (kturn); 0, or an error when the ply raised
   the tier (tiered reachability, tiers.c) */
static int sv_edge(Sv *sv, SvBlock *from, SvBlock *to, int turn) {
    if (sv->tiered && to->tier > from->tier) {  /* (tiers.c: its blocks may be let go) */
        sv_fail(sv, SV_ERR_INDEX, "a ply raised the tier the model gave (dsl/monotone.py)");
        return SV_ERR_INDEX;
    }
    uint8_t bit = (uint8_t)(1 << turn);
    if (from == to) {
        __atomic_store_n(&sv->cyclic, 1, __ATOMIC_RELAXED);
        __atomic_store_n(&from->loop, 1, __ATOMIC_RELAXED);
        __atomic_fetch_or(&from->kturn[SV_MAX_KIDS], bit, __ATOMIC_RELAXED);
        return 0;
    }
    int n = __atomic_load_n(&from->nkids, __ATOMIC_ACQUIRE);
    for (int i = 0; i < n; i++)
        if (from->kids[i] == to) {
            __atomic_fetch_or(&from->kturn[i], bit, __ATOMIC_RELAXED);
            return 0;
        }
    pthread_mutex_lock(&sv->lock);
    n = from->nkids;
    int i = 0;
    while (i < n && from->kids[i] != to) i++;
    if (i < n) __atomic_fetch_or(&from->kturn[i], bit, __ATOMIC_RELAXED);
    else if (n == SV_MAX_KIDS) sv->cyclic = sv->overflow = 1;  /* too many to follow: arcs */
    else {
        from->kids[n] = to;
        __atomic_fetch_or(&from->kturn[n], bit, __ATOMIC_RELAXED);
        __atomic_store_n(&from->nkids, n + 1, __ATOMIC_RELEASE);
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

/* the block of state `s` (in canonical form): `*hint` asked first, its key compared with
   the state as it stands (sv_key_is), then the blocks `w` found lately, then the table,
   where a new block is made if `make`, else NULL; `*hint` is made the block found */
static inline __attribute__((always_inline)) SvBlock *sv_hinted(Sv *sv, SvWork *w, const S *s, SvBlock **hint,
                                                               int make) {
    SvBlock *b = hint && *hint && sv_key_is(sv, s, &(*hint)->key) ? *hint : NULL;
    if (b) return b;
    SvKey k;
    if (sv_key_of(sv, s, &k)) return NULL;
    b = w ? sv_recent(w, &k) : NULL;  /* most children fall in a few blocks */
    if (!b) {
        b = make ? sv_block(sv, &k) : sv_find(sv, &k, sv_hash(&k));
        if (w && b) sv_remember(w, b);
    }
    if (hint && b) *hint = b;
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

/* the index of `s` in its block `b`; 0, or an error when it is not one of the index. Where
   every type is a cell a piece on the board (sv->flat), each type's rank in rt (by
   sv->order), and with `ps`, a position whose ranks are prt: a type's rank depends only on
   its cells and those of the types before it, so the leading types whose cells `s` shares
   with `ps` keep theirs (a child whose ply moved none of them) */
static inline __attribute__((always_inline)) int sv_rank_from(Sv *sv, const SvBlock *b, const S *s, const S *ps,
                                                             const uint64_t *prt, uint64_t *rt, uint64_t *out) {
    if (!sv->flat) {  /* (no ranks kept: none taken from `ps`) */
        memset(rt, 0, RC_NT * sizeof *rt);
        return sv_rank_any(sv, b, s, out);
    }
    M used0 = m_zero();
    uint64_t r = 0;
    int same = ps != NULL;
    SV_UNROLL for (int i = 0; i < RC_NT; i++) {
        int t = sv->order[i];
        uint64_t x = 0;
        same = same && m_eq(s->c[t], ps->c[t]);
        if (same) x = prt[i];
        else if (sv_rank_cells(sv, t, s->c[t], used0, &x)) return SV_ERR_INDEX;
        rt[i] = x;
        r += x * b->stride[t];
        used0 = m_or(used0, s->c[t]);
    }
    *out = r;
    return 0;
}

static inline int sv_rank(Sv *sv, const SvBlock *b, const S *s, uint64_t *out) {
    uint64_t rt[RC_NT];
    return sv_rank_from(sv, b, s, NULL, NULL, rt, out);
}

/* the position at index `idx` of block `b`: its types' ranks from the slowest, a division
   each (the last type's stride is 1), kept in rts (by sv->order) */
static void sv_unrank_at(const Sv *sv, const SvBlock *b, uint64_t idx, S *s, uint64_t *rts) {
    M used0 = m_zero(), riders[RC_NT];
    for (int t = 0; t < RC_NT; t++) riders[t] = m_zero();
    for (int i = 0; i < RC_NT; i++) {
        int t = sv->order[i], n = (int)b->key.cnt[t];
        uint64_t rt = i == RC_NT - 1 ? idx : idx / b->stride[t];
        idx -= rt * b->stride[t];
        rts[i] = rt;
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

/* sv_unrank_at where `s` and `rts` hold another position of block `b` (`known`; else
   none): a type whose rank is unchanged, as are those of the types before it, keeps its
   cells, and where only the last type's rank changes (a run of the index) no division is
   made. Every type a one-cell piece on the board (sv->flat); the un-move solve's, which
   reads positions in index order (so unused where RC_UNDO is 0) */
static __attribute__((unused)) void sv_unrank_next(const Sv *sv, const SvBlock *b, uint64_t idx, S *s,
                                                  uint64_t *rts, int known) {
    if (!known || !sv->flat) {
        sv_unrank_at(sv, b, idx, s, rts);
        return;
    }
    int tl = sv->order[RC_NT - 1];  /* (its stride is 1) */
    uint64_t base = 0;
    for (int i = 0; i < RC_NT - 1; i++) base += rts[i] * b->stride[sv->order[i]];
    M used0 = m_zero();
    if (idx >= base && idx - base < b->radix[tl]) {  /* the last type's alone: no division */
        if (idx - base == rts[RC_NT - 1]) return;
        for (int i = 0; i < RC_NT - 1; i++) used0 = m_or(used0, s->c[sv->order[i]]);
        rts[RC_NT - 1] = idx - base;
        M u = m_andn(sv->cells[tl], used0);
        s->c[tl] = sv_uncolex(sv, idx - base, (int)b->key.cnt[tl], m_pop(u), u);
        return;
    }
    int same = 1;
    for (int i = 0; i < RC_NT; i++) {
        int t = sv->order[i];
        uint64_t rt = i == RC_NT - 1 ? idx : idx / b->stride[t];
        idx -= rt * b->stride[t];
        same = same && rt == rts[i];
        if (!same) {
            rts[i] = rt;
            M u = m_andn(sv->cells[t], used0);
            s->c[t] = sv_uncolex(sv, rt, (int)b->key.cnt[t], m_pop(u), u);
        }
        used0 = m_or(used0, s->c[t]);
    }
}

static void sv_unrank(const Sv *sv, const SvBlock *b, uint64_t idx, S *s) {
    uint64_t rts[RC_NT];
    sv_unrank_at(sv, b, idx, s, rts);
}

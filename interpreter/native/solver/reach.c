/* rulecraft native solver: reachability (breadth-first over the blocks' bitsets). One unit
   of solver.c's translation unit (after threads.c; solver.c says what the solver does). */

/* ------------------------------------------------------------------ reachability */
/* the block and index of a state, put in canonical form unless it is (`canonical`); NULL
   on an error. With `ps`, a position located before whose types' ranks are prt: those
   it shares taken as they are (sv_rank_from), and the state's in rt. With `hint`, a
   block asked first, and then made the state's. */
static inline __attribute__((always_inline)) SvBlock *sv_locate_from(Sv *sv, SvWork *w, S *s, uint64_t *idx, int canonical,
                                                                    const S *ps, const uint64_t *prt, uint64_t *rt,
                                                                    SvBlock **hint) {
    if (!canonical) sv_canon(sv, s, sv->cmp);
    SvBlock *b = sv_hinted(sv, w, s, hint, 1);
    if (!b || sv_rank_from(sv, b, s, ps, prt, rt, idx)) return NULL;
    const uint64_t *reach = __atomic_load_n(&b->reach, __ATOMIC_RELAXED);
    if (reach) __builtin_prefetch(&reach[*idx >> 6]);  /* read once all the children are known */
    if (b->prefix) __builtin_prefetch(&b->prefix[*idx >> 9]);
    return b;
}

static inline __attribute__((always_inline)) SvBlock *sv_locate(Sv *sv, SvWork *w, S *s, uint64_t *idx, int canonical) {
    uint64_t rt[RC_NT];
    return sv_locate_from(sv, w, s, idx, canonical, NULL, NULL, rt, NULL);
}

/* whether child `t` of `s` (in canonical form) is in canonical form as it stands: `alone`
   (sv_alone_memo of `s`) and the slot compared first left as it is, and no swap of the players
   due */
static inline int sv_kept(const Sv *sv, int alone, const S *s, const S *t) {
    return alone && m_eq(t->c[sv->cmp[0]], s->c[sv->cmp[0]]) && !(sv->swap && t->v[RC_P]);
}

/* the children of `s` (in canonical form, its types' ranks prt if not NULL; one a legal
   ply, in order) located in w->cb, w->ci, and in w->turn whether the player to move
   changes on the way (with the players' swap, the child kept does not tell); their
   number, or -1 after an error */
static int sv_children(Sv *sv, SvWork *w, const S *s, const uint64_t *prt) {
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
        uint8_t *turn = realloc(w->turn, (size_t)n);
        if (turn) w->turn = turn;
        if (!cb || !ci || !kids || !vp || !turn) { sv_fail(sv, RC_ERR_MEMORY, "out of memory"); return -1; }
        w->capkids = (size_t)n;
    }
    int alone = sv->nperm > 1 && sv_alone_memo(sv, w, s);
    for (int a = 0; a < n; a++) {
        S t;
        int e = rc_apply(s, &w->buf.a[a], &t);
        if (e < 0) { sv_fail(sv, e, "the rules stopped on an error"); return -1; }
        w->turn[a] = t.v[RC_P] != s->v[RC_P];
        uint64_t rt[RC_NT];
        w->cb[a] = sv_locate_from(sv, w, &t, &w->ci[a], sv_kept(sv, alone, s, &t), prt ? s : NULL, prt, rt, &w->hint);
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

/* how many distinct keys among the `n` of `k` (children as block id << 40 | index, and
   with the players' swap SV_TURN where the mover changes: the arcs the retrograde solve
   would keep): up to SV_DISTINCT_FEW by a bit a key, past it each put in a small
   open-addressed set (3x to 10x faster than sorting them at 12 to 100 children), sorted in
   place past SV_DISTINCT_SET / 2 */
#define SV_DISTINCT_SET 512
#define SV_DISTINCT_FEW 24
static uint64_t sv_distinct_keys(uint64_t *k, int n) {
    uint64_t m = 0;
    if (n <= SV_DISTINCT_FEW) {  /* few: a bit a key's hash, the keys before asked only when
                                    it is set (mostly none are equal: no set to clear) */
        uint64_t seen = 0;
        for (int a = 0; a < n; a++) {
            uint64_t bit = (uint64_t)1 << ((k[a] * 0x9E3779B97F4A7C15ull) >> 58);
            int dup = 0;
            if (seen & bit)
                for (int b = 0; b < a && !dup; b++) dup = k[b] == k[a];
            seen |= bit;
            m += (uint64_t)!dup;
        }
        return m;
    }
    if (2 * n > SV_DISTINCT_SET) {
        sv_sort_u64(k, (size_t)n);
        for (int a = 0; a < n; a++) if (a == 0 || k[a] != k[a - 1]) m++;
        return m;
    }
    uint64_t set[SV_DISTINCT_SET];
    int bits = 3;
    while ((1 << bits) < 2 * n) bits++;
    size_t mask = ((size_t)1 << bits) - 1;
    memset(set, 0xff, sizeof *set << bits);
    for (int a = 0; a < n; a++) {
        size_t h = (size_t)((k[a] * 0x9E3779B97F4A7C15ull) >> (64 - bits));
        while (set[h] != k[a] && set[h] != UINT64_MAX) h = (h + 1) & mask;
        if (set[h] == UINT64_MAX) { set[h] = k[a]; m++; }
    }
    return m;
}

/* the same, of the children in w->cb, w->ci (and w->turn) */
static uint64_t sv_distinct(SvWork *w, int n) {
    for (int a = 0; a < n; a++) w->ci[a] |= (uint64_t)w->cb[a]->id << 40;  /* (ids < 2^21: never all ones) */
    if (w->sv->swap)
        for (int a = 0; a < n; a++) w->ci[a] |= (uint64_t)w->turn[a] << SV_TURN_BIT;
    return sv_distinct_keys(w->ci, n);
}

/* an expanded position's count of distinct children, kept for the un-move solve while
   reachability has its children at hand (the counting pass then has none to make): a byte
   a position (sv_keep_tally), SV_TALLY_MORE when more (counted again) */
static inline void sv_tally(const Sv *sv, SvWork *w, SvBlock *b, uint64_t i, int n) {
    uint64_t m = n ? sv_distinct(w, n) : 0;
    if (sv_keep_tally(b, i, m <= sv->tally_most ? (uint8_t)m : SV_TALLY_MORE, m)) w->arcs += m;
}

/* the tallies let go (a solve that does not use them) */
static void sv_untally_all(Sv *sv) {
    for (int k = 0; k < sv->nblocks; k++) {
        sv_free(sv, sv->blocks[k]->tally, sv_tally_bytes(sv->blocks[k]));
        sv->blocks[k]->tally = NULL;
    }
}

/* index `i` of dense block `c` marked reached, and to be expanded unless the block
   ended: 1 if new, 0 if reached before, else an error */
static int sv_dense_mark(Sv *sv, SvBlock *c, uint64_t i) {
    if (!sv_set_bit(c->reach, i)) return 0;
    if (c->ended) return 1;  /* an ended position is not expanded */
    uint64_t *f = sv_frontier(sv, c);
    if (!f) return RC_ERR_MEMORY;
    sv_set_bit(f, i);
    if (!__atomic_load_n(&c->cur_any, __ATOMIC_RELAXED))
        __atomic_store_n(&c->cur_any, 1, __ATOMIC_RELAXED);
    return 1;
}

/* the same in any block */
static int sv_reach_mark(Sv *sv, SvBlock *c, uint64_t i) {
    if (__atomic_load_n(&c->sparse, __ATOMIC_ACQUIRE)) {
        int r = sv_sparse_add(sv, c, i);
        if (r != -1) return r;  /* (-1: dense now) */
    }
    return sv_dense_mark(sv, c, i);
}

/* the children a thread gathered in sparse blocks marked reached, a lock taken once for
   each run of children in one block (most children of a block's positions fall in a few
   blocks; a lock taken for each, the threads would wait on each other); 0 or an error */
static int sv_flush(Sv *sv, SvWork *w) {
    SvBlock **kb = w->defer_b;  /* (not sv->blocks: another thread may be growing it) */
    const uint64_t *ki = w->defer_i;
    size_t n = w->ndefer;
    w->ndefer = 0;
    for (size_t a = 0; a < n;) {
        SvBlock *c = kb[a];
        pthread_mutex_lock(&c->mu);
        int r = 0;
        for (; a < n && kb[a] == c && r >= 0; a++) {
            r = sv_sparse_put(sv, c, ki[a]);
            if (r > 0) w->found++;
        }
        pthread_mutex_unlock(&c->mu);
        if (r == -1) a--;  /* dense now: the rest of its children marked in its bitsets */
        for (; a < n && kb[a] == c && r == -1; a++) {
            int d = sv_dense_mark(sv, c, ki[a]);
            if (d < 0) return d;
            w->found += (uint64_t)d;
        }
        if (r < -1) return r;
    }
    return 0;
}

/* index `i` of sparse block `c` to be marked reached when the thread's children are
   flushed (sv_flush); 0 or an error */
static int sv_defer(Sv *sv, SvWork *w, SvBlock *c, uint64_t i) {
    if (!w->defer_b) {
        w->defer_b = malloc(SV_DEFER * sizeof *w->defer_b);
        w->defer_i = malloc(SV_DEFER * sizeof *w->defer_i);
        if (!w->defer_b || !w->defer_i) {
            sv_fail(sv, RC_ERR_MEMORY, "out of memory");
            return RC_ERR_MEMORY;
        }
    }
    w->defer_b[w->ndefer] = c;
    w->defer_i[w->ndefer++] = i;
    return w->ndefer == SV_DEFER ? sv_flush(sv, w) : 0;
}

/* reachability: position `i` of `b` expanded, its children not reached before marked to
   be */
static void sv_expand(Sv *sv, SvWork *w, SvBlock *b, uint64_t i) {
    S s;
    uint64_t rt[RC_NT];
    sv_unrank_at(sv, b, i, &s, rt);
    w->done++;
    int o = (int)s.v[RC_OUT], n = o < 0 ? sv_children(sv, w, &s, rt) : 0;
    if (n < 0) return;
    if (!n && o < 0) o = rc_outcome(&s);  /* (asked only of a player with no ply, whether stuck
                                             ends the game: its search for a ply not made twice) */
    if (o >= 0) {
        if (b->tallying) sv_keep_tally(b, i, (uint8_t)(SV_TALLY_END + sv_end_value(o, s.v[RC_P])), 0);
        return;
    }
    for (int a = 0; a < n; a++) {
        SvBlock *c = w->cb[a];
        int turn = sv->swap && w->turn[a];
        if (c != w->edge_to || b != w->edge_from || turn != w->edge_turn) {
            if (sv_edge(sv, b, c, turn)) return;
            w->edge_from = b;
            w->edge_to = c;
            w->edge_turn = turn;
        }
        if (__atomic_load_n(&c->sparse, __ATOMIC_ACQUIRE)) {
            if (sv_defer(sv, w, c, w->ci[a])) return;
            continue;
        }
        int r = sv_dense_mark(sv, c, w->ci[a]);
        if (r < 0) return;
        w->found += (uint64_t)r;
    }
    if (b->tallying) sv_tally(sv, w, b, i, n);
}

/* the positions of a unit waiting to be expanded, expanded: a sparse block's from its
   list; a dense block's each word's bits taken at once (those set meanwhile wait for the
   next sweep) */
static void sv_expand_unit(Sv *sv, SvWork *w, SvUnit *u) {
    SvBlock *b = u->b;
    if (u->keys) {
        for (uint64_t k = u->w0; k < u->w1 && !sv_failed(sv); k++) sv_expand(sv, w, b, u->keys[k]);
    } else {
        for (uint64_t wd = u->w0; wd < u->w1; wd++) {
            uint64_t x = __atomic_load_n(&b->cur[wd], __ATOMIC_RELAXED);
            if (x) __atomic_fetch_and(&b->cur[wd], ~x, __ATOMIC_RELAXED);
            for (; x && !sv_failed(sv); x &= x - 1)
                sv_expand(sv, w, b, 64 * wd + (uint64_t)__builtin_ctzll(x));
        }
    }
    if (w->ndefer && !sv_failed(sv)) sv_flush(sv, w);
    if (sv->max_positions && sv->positions + sv_sum(sv, offsetof(SvWork, found)) > sv->max_positions)
        sv_fail(sv, SV_ERR_POSITIONS, "more than %llu positions are reachable",
                (unsigned long long)sv->max_positions);
}

static void sv_reach(Sv *sv, const S *start) {
    S s = *start;
    uint64_t i;
    SvBlock *b = sv_locate(sv, NULL, &s, &i, 0);
    if (!b || sv_reach_mark(sv, b, i) < 0) return;
    sv->positions = 1;
    sv->phase = 0;
    /* sweeps over the blocks with positions waiting (one bitset each: what a sweep finds
       is expanded in it or the next), until one finds nothing new; tiered, over the
       highest tier's blocks with positions waiting (tiers.c) */
    for (sv->depth = 0; !sv_failed(sv); sv->depth++) {
        if (sv->tiered && sv_tier_next(sv)) break;
        for (int k = 0; k < sv->nblocks; k++)
            if (!sv->tiered || sv->blocks[k]->tier == sv->tier_now) sv_sparse_sweep(sv, sv->blocks[k]);
        if (sv_units(sv, SV_FOUND) || sv->nunits == 0) break;
        for (int k = 0; k < sv->nblocks; k++)
            if (!sv->tiered || sv->blocks[k]->tier == sv->tier_now) sv->blocks[k]->cur_any = 0;
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
        sv_block_free(sv, c, c->cur, (size_t)c->words * 8);
        c->cur = NULL;
        c->cur_any = 0;
        if (c->sparse && !sv_failed(sv) && sv_sparse_finish(sv, c)) return;
        sv_let_go(sv, &c->walk, &c->nwalk, &c->capwalk);
    }
}

/* rulecraft native solver: the exports: configuration, run, output, lookup, stats, free.
   One unit of solver.c's translation unit (after retrograde.c; solver.c says what the
   solver does). */

/* ------------------------------------------------------------------ exports */
/* the layout of struct rc_solve_config as this compiler made it, for native_solve.py to
   check its ctypes mirror against: RC_NT, RC_NI, then the size of struct rc_solve_config
   and the offset of each of its fields in order, the same for struct rc_solve_type and
   struct rc_solve_slot; the count of numbers written (at most 32) */
int rc_solve_config_layout(int64_t *out) {
    int n = 0;
    out[n++] = RC_NT; out[n++] = RC_NI;
    out[n++] = (int64_t)sizeof(struct rc_solve_config);
    out[n++] = (int64_t)offsetof(struct rc_solve_config, threads);
    out[n++] = (int64_t)offsetof(struct rc_solve_config, arcs_only);
    out[n++] = (int64_t)offsetof(struct rc_solve_config, max_memory);
    out[n++] = (int64_t)offsetof(struct rc_solve_config, max_positions);
    out[n++] = (int64_t)offsetof(struct rc_solve_config, tally_room);
    out[n++] = (int64_t)offsetof(struct rc_solve_config, tally_most);
    out[n++] = (int64_t)offsetof(struct rc_solve_config, sparse_above);
    out[n++] = (int64_t)offsetof(struct rc_solve_config, sparse_stays);
    out[n++] = (int64_t)offsetof(struct rc_solve_config, out_of_core);
    out[n++] = (int64_t)offsetof(struct rc_solve_config, depth_first);
    out[n++] = (int64_t)offsetof(struct rc_solve_config, nperm);
    out[n++] = (int64_t)offsetof(struct rc_solve_config, swap);
    out[n++] = (int64_t)offsetof(struct rc_solve_config, swap_type);
    out[n++] = (int64_t)offsetof(struct rc_solve_config, swap_slot);
    out[n++] = (int64_t)offsetof(struct rc_solve_config, order);
    out[n++] = (int64_t)offsetof(struct rc_solve_config, tier_weight);
    out[n++] = (int64_t)offsetof(struct rc_solve_config, types);
    out[n++] = (int64_t)offsetof(struct rc_solve_config, slots);
    out[n++] = (int64_t)offsetof(struct rc_solve_config, arrangements);
    out[n++] = (int64_t)sizeof(struct rc_solve_type);
    out[n++] = (int64_t)offsetof(struct rc_solve_type, size);
    out[n++] = (int64_t)offsetof(struct rc_solve_type, level);
    out[n++] = (int64_t)offsetof(struct rc_solve_type, carrier);
    out[n++] = (int64_t)offsetof(struct rc_solve_type, nplace);
    out[n++] = (int64_t)sizeof(struct rc_solve_slot);
    out[n++] = (int64_t)offsetof(struct rc_solve_slot, shift);
    out[n++] = (int64_t)offsetof(struct rc_solve_slot, low);
    out[n++] = (int64_t)offsetof(struct rc_solve_slot, high);
    return n;
}

/* A solver, configured by `cfg` (struct rc_solve_config, rulecraft.h: threads, caps, the
   solve's method and tallies, the piece types and int slots of the index). `perm`: nperm
   permutations of RC_CELLS cells (cell i -> perm[i]), the identity among them. `place`:
   each wide type's placements in turn, RC_W words each. `cells`: per piece type, the
   cells its pieces are ranked among, RC_W words each; each one-cell type's on the board
   holds those of the types before it in `order` (checked: a ply putting a piece off them
   fails the solve). rc_solve_run then solves from a start state. NULL when out of memory. */
void *rc_solve_new(const struct rc_solve_config *cfg, const int32_t *perm, const uint64_t *place,
                   const uint64_t *cells) {
    Sv *sv = calloc(1, sizeof *sv);
    if (!sv) return NULL;
    sv->threads = cfg->threads;
    if (sv->threads < 1) sv->threads = 1;
    if (sv->threads > SV_MAX_THREADS) sv->threads = SV_MAX_THREADS;
    sv->max_memory = cfg->max_memory;
    sv->max_positions = cfg->max_positions;
    sv->arcs_only = cfg->arcs_only;
    sv->arrangements = cfg->arrangements != 0;
    /* by default, a game the un-move solve may take keeps dense blocks: on 3-A-Side its
       levels ran 3 times slower on sparse ones (docs/PERFORMANCE.md, "Sparse blocks") */
    sv->sparse_above = cfg->sparse_above >= 0 ? (uint64_t)cfg->sparse_above
                       : RC_UNDO && !sv->arcs_only ? SV_MAX_BLOCK : SV_SPARSE_ABOVE;
    sv->sparse_stays = cfg->sparse_stays;
    sv->out_of_core = cfg->out_of_core;
    sv->depth_first = cfg->depth_first < 0 ? sv->out_of_core != 1 && !sv->arcs_only : cfg->depth_first;
    for (int t = 0; t < RC_NT; t++) sv->tier_weight[t] = cfg->tier_weight[t];
    int64_t room = cfg->tally_room, most = cfg->tally_most;
    sv->nperm = cfg->nperm;
    sv->swap = cfg->swap != 0;
    for (int t = 0; t < RC_NT; t++) sv->swap_type[t] = sv->swap ? cfg->swap_type[t] : t;
    for (int j = 0; j < RC_NI; j++) sv->swap_slot[j] = sv->swap ? cfg->swap_slot[j] : j;
    sv->flat = 1;
    for (int t = 0; t < RC_NT; t++) {
        sv->size[t] = cfg->types[t].size;
        sv->level[t] = cfg->types[t].level;
        if (sv->size[t] > 1 || sv->level[t]) sv->flat = 0;
        sv->carrier[t] = cfg->types[t].carrier;
        sv->nplace[t] = cfg->types[t].nplace;
        sv->order[t] = cfg->order[t];
    }
    for (int j = 0; j < RC_NI; j++) {
        sv->shift[j] = cfg->slots[j].shift;
        sv->low[j] = cfg->slots[j].low;
        sv->high[j] = cfg->slots[j].high;
    }
    pthread_mutex_init(&sv->lock, NULL);
    for (int t = 0; t < RC_NT; t++)
        for (int w = 0; w < RC_W; w++) sv->cells[t].w[w] = cells[t * RC_W + w];
    size_t np = (size_t)(sv->nperm > 0 ? sv->nperm : 1) * RC_CELLS;
    sv->perm = sv_alloc(sv, np * sizeof(int32_t));
    if (sv->perm && sv->nperm > 0) memcpy(sv->perm, perm, (size_t)sv->nperm * RC_CELLS * sizeof(int32_t));
    if (sv->perm) sv_tables(sv);
    if (sv->swap) sv_swap_tables(sv, perm + (size_t)(sv->nperm > 0 ? sv->nperm : 0) * RC_CELLS);
    for (int t = 0; t < RC_NT; t++) {
        if (sv->size[t] <= 1) continue;
        sv->place[t] = sv_alloc(sv, (size_t)(sv->nplace[t] + 1) * sizeof(M));
        if (!sv->place[t]) break;
        for (int p = 0; p < sv->nplace[t]; p++, place += RC_W)
            for (int w = 0; w < RC_W; w++) sv->place[t][p].w[w] = place[w];
    }
    sv_nested(sv);
    sv->bn = RC_CELLS;
    for (int t = 0; t < RC_NT; t++) if (sv->nplace[t] > sv->bn) sv->bn = sv->nplace[t];
    sv->bn += SV_CHUNK;  /* sv_chunk_ranks reads up to RC_CELLS + SV_CHUNK - 1 */
    sv->binom = sv_alloc(sv, (size_t)sv->bn * (size_t)sv->bn * 8);
    if (sv->binom)
        for (int n = 0; n < sv->bn; n++)
            for (int k = 0; k <= n; k++) {
                uint64_t v = k == 0 || k == n ? 1 : sv->binom[(size_t)(n - 1) * sv->bn + k - 1] +
                                                    sv->binom[(size_t)(n - 1) * sv->bn + k];
                sv->binom[(size_t)n * sv->bn + k] = v > SV_MAX_BLOCK ? SV_MAX_BLOCK + 1 : v;
            }
    if (sv->binom) sv_chunk_ranks(sv);
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

/* blocks in order of their keys (piece counts, then int slots, then previous-ply cells,
   each as a number) */
static int sv_key_cmp(const void *a, const void *b) {
    const SvKey *x = &(*(SvBlock *const *)a)->key, *y = &(*(SvBlock *const *)b)->key;
    for (int t = 0; t < RC_NT; t++) if (x->cnt[t] != y->cnt[t]) return x->cnt[t] < y->cnt[t] ? -1 : 1;
    for (int j = 0; j < RC_NI; j++) if (x->v[j] != y->v[j]) return x->v[j] < y->v[j] ? -1 : 1;
    for (int h = 0; h < SV_NH; h++) {
        int c = sv_mcmp(x->hist[h], y->hist[h]);
        if (c) return c;
    }
    return 0;
}

/* the solved blocks numbered in key order: reachability numbers them as its threads find
   them, so without this the file and the positions' numbers would follow the threads'
   timing */
static void sv_order_blocks(Sv *sv) {
    qsort(sv->blocks, (size_t)sv->nblocks, sizeof *sv->blocks, sv_key_cmp);
    for (int k = 0; k < sv->nblocks; k++) sv->blocks[k]->id = k;
}

/* a thread's buffers let go */
static void sv_work_free(SvWork *w) {
    buf_free(&w->buf);
    buf_free(&w->ubuf);
    free(w->kids);
    free(w->cb);
    free(w->ci);
    free(w->vp);
    free(w->turn);
    free(w->pk);
    free(w->pend);
    w->pend = NULL;
    w->npend = w->cappend = 0;
    free(w->defer_b);
    free(w->defer_i);
    w->defer_b = NULL;
    w->defer_i = NULL;
    w->ndefer = 0;
    w->pk = NULL;
    w->cappk = 0;
    w->vp = NULL;
    w->turn = NULL;
    w->kids = NULL;
    w->cb = NULL;
    w->ci = NULL;
    w->capkids = 0;
}

/* after reachability (started at `t0`): the solve its blocks' graph allows */
static void sv_after_reach(Sv *sv, double t0) {
    sv->tiered = 0;
    if (sv_failed(sv) == RC_ERR_MEMORY)  /* (the blocks found so far, checked for a cycle) */
        sv->tiers_help = !sv->cyclic && !sv_heights(sv);
    for (int t = 0; t < sv->threads; t++) {  /* what sv_tally counted */
        sv->tally_arcs += sv->work[t].arcs;
        sv->work[t].arcs = 0;
    }
    sv->tally_arcs -= sv->untallied;
    double t1 = sv_now();
    if (!sv_failed(sv) && !sv->arcs_only && !sv->cyclic && !sv_heights(sv)) {
        sv_untally_all(sv);
        sv->one_pass = 1;
        sv_one_pass(sv);
    } else if (sv->arena && !sv_failed(sv) && sv_tiers_hold_all(sv)) {
        /* the memory cap: these solves read every block at random */
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
    if (sv->out_of_core == 1 && !sv->arena) {
        if (sv_arena_open(sv)) return sv->err;
        for (int t = 0; t < RC_NT; t++) sv->tiered |= sv->tier_weight[t] != 0;
    }
    if (sv->arrangements) {
#if RC_UNDO
        sv->one_pass = sv->undo = 1;  /* the one-pass solve's storage */
        sv_arrangements(sv, &s);
#else
        sv_fail(sv, SV_ERR_INDEX, "every arrangement cannot be solved: some ply cannot be taken back");
#endif
        sv->reach_s = 0;
        sv->retro_s = sv_now() - t0;
    } else if (sv->depth_first && !sv->arena && sv_dfs(sv, &s) != 1) {  /* solved, or an error */
        sv->reach_s = 0;
        sv->retro_s = sv_now() - t0;
    } else {
        sv_reach(sv, &s);  /* (its time counts a depth-first solve that gave up) */
        sv_after_reach(sv, t0);
    }
    if (!sv_failed(sv)) sv_order_blocks(sv);
    for (int t = 0; t < SV_MAX_THREADS; t++) sv_work_free(&sv->work[t]);
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
        SV_EACH_IN_BLOCK(b, i) {
            S s;
            sv_unrank(sv, b, i, &s);
            sv_canon(sv, &s, sv->keycmp);  /* the key symmetry.Canonicalizer gives */
            sv_u128 key = sv_pack(sv, &s);
            uint32_t r;
            uint8_t v = sv_value_at(sv, b, i, &r);
            recs[at++] = (SvRec){(uint64_t)key, (uint64_t)(key >> 64), v | r << 2};
        }
        sv_tier_read(sv, b);
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

/* the block of `st`'s canonical form, its index there in `*i`; NULL if the index has
   no such block */
static SvBlock *sv_where(Sv *sv, const uint64_t *st, uint64_t *i) {
    S s;
    st_in(st, &s);
    sv_canon(sv, &s, sv->cmp);
    int err = sv->err;  /* a position the index cannot hold is only not held: no error kept */
    SvKey k;
    SvBlock *b = NULL;
    if (!sv_key_of(sv, &s, &k)) b = sv_find(sv, &k, sv_hash(&k));
    if (b && sv_rank(sv, b, &s, i)) b = NULL;
    if (!err) sv->msg[0] = 0;
    sv->err = err;
    return b;
}

/* the value code (0: a position the solve did not reach) and remoteness of `st`;
   SV_UNREAD for a file of format 6 */
int rc_solve_lookup(void *h, const uint64_t *st, uint32_t *rem) {
    Sv *sv = h;
    uint64_t i = 0;
    SvBlock *b = sv_where(sv, st, &i);
    if (b && sv_unread(b)) return SV_UNREAD;
    if (!b || !sv_reached(b, i)) return 0;
    return sv_value_at(sv, b, i, rem);
}

/* where `st` would be: its block's number and its index there in `out`; 0 if the index
   has no block for it */
int rc_solve_locate(void *h, const uint64_t *st, uint64_t *out) {
    uint64_t i = 0;
    SvBlock *b = sv_where(h, st, &i);
    if (!b) return 0;
    out[0] = (uint64_t)b->id;
    out[1] = i;
    return 1;
}

/* index `i` (< its size) of block `k` as a flat state in `st` */
void rc_solve_unrank(void *h, int k, uint64_t i, uint64_t *st) {
    Sv *sv = h;
    S s;
    sv_unrank(sv, sv->blocks[k], i, &s);
    st_out(&s, st);
}

/* the `d`-th solved position, blocks in order and indices rising (0 <= d < positions), as a
   flat state in `st`; 0, -1 past the last, or SV_UNREAD */
int rc_solve_position(void *h, uint64_t d, uint64_t *st) {
    Sv *sv = h;
    for (int k = 0; k < sv->nblocks; k++) {
        SvBlock *b = sv->blocks[k];
        if (d >= b->count) {
            d -= b->count;
            continue;
        }
        if (sv_unread(b)) return SV_UNREAD;
        S s;
        if (b->keys) {
            sv_unrank(sv, b, b->keys[d], &s);
            st_out(&s, st);
            return 0;
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
        sv_unrank(sv, b, 64 * wd + (uint64_t)__builtin_ctzll(x), &s);
        st_out(&s, st);
        return 0;
    }
    return -1;
}

/* how many solved positions are wins, losses and draws for their player to move; 0, or
   SV_UNREAD */
int rc_solve_counts(void *h, uint64_t *out) {
    Sv *sv = h;
    out[0] = out[1] = out[2] = 0;
    if (!sv->one_pass) {
        for (uint64_t d = 0; d < sv->ndense; d++) out[sv->values[d] - 1]++;
        return 0;
    }
    for (int k = 0; k < sv->nblocks; k++) {
        SvBlock *b = sv->blocks[k];
        if (b->ended) out[b->ended - 1] += b->count;
        else if (sv_unread(b)) return SV_UNREAD;
        else for (uint64_t d = 0; d < b->count; d++) out[(b->val[d] & 3) - 1]++;
        sv_tier_read(sv, b);
    }
    return 0;
}

/* positions, arcs, terminal, retrograde levels, peak bytes, reachability depth, positions
   found (when the solve stopped: by the plies it finished), the method (0: arcs, 1: one pass, 2:
   un-moves, 3: depth first), the blocks left sparse, the bytes of its file out of core (0: in memory),
   whether the memory cap stopped reachability before its blocks made a cycle (a solve
   out of core, a tier at a time, may then need less) */
void rc_solve_stats(void *h, uint64_t *out, double *seconds) {
    Sv *sv = h;
    out[0] = sv->ndense; out[1] = sv->narcs; out[2] = sv->terminal; out[3] = (uint64_t)sv->levels;
    out[4] = sv->peak; out[5] = (uint64_t)sv->depth;
    out[6] = sv->ndense > sv->positions ? sv->ndense : sv->positions;
    out[7] = (uint64_t)(sv->undo ? 2 : sv->solved_depth_first ? 3 : sv->one_pass);
    out[8] = 0;
    for (int k = 0; k < sv->nblocks; k++) out[8] += sv->blocks[k]->keys != NULL;
    out[9] = sv->arena ? sv->arena_bytes : 0;
    out[10] = (uint64_t)sv->tiers_help;
    seconds[0] = sv->reach_s; seconds[1] = sv->retro_s;
}

/* codec.Codec.unpack: the state of a packed key */
static void sv_unpack(const Sv *sv, sv_u128 k, S *s) {
    for (int i = 0; i < RC_NC; i++)
        for (int w = 0; w < RC_W; w++) {
            int at = i * RC_CELLS + 64 * w, bits = RC_CELLS - 64 * w < 64 ? RC_CELLS - 64 * w : 64;
            uint64_t x = at < 128 ? (uint64_t)(k >> at) : 0;
            s->c[i].w[w] = bits < 64 ? x & (((uint64_t)1 << bits) - 1) : x;
        }
    for (int j = 0; j < RC_NI; j++) {
        uint64_t range = (uint64_t)(sv->high[j] - sv->low[j]), x = 0;
        int width = range ? 64 - __builtin_clzll(range) : 0;
        if (width && sv->shift[j] < 128) x = (uint64_t)(k >> sv->shift[j]) & (width < 64 ? ((uint64_t)1 << width) - 1 : ~(uint64_t)0);
        s->v[j] = (int64_t)x + sv->low[j];
    }
}

/* The tasks of the solve by tiers (search/tiered.py): n positions as packed keys (lo, hi
   words). Per position its mover, its end (0: it goes on; else SV_WIN, SV_LOSE or SV_DRAW
   for its mover) and its distinct children, as symmetry.Canonicalizer's packed keys and
   the movers of the children as made (with the players' swap, a key may come with
   either): position i's at [end[i - 1], end[i]) (from 0). Their number: if more than
   `cap`, those past it are not written (ask again with room); or an error. */
int64_t rc_solve_children(void *h, int64_t n, const uint64_t *lo, const uint64_t *hi, int8_t *mover,
                          int8_t *status, int64_t *end, uint64_t *klo, uint64_t *khi, int8_t *kmover,
                          int64_t cap) {
    Sv *sv = h;
    Buf b = {0};
    int64_t at = 0;
    for (int64_t i = 0; i < n; i++) {
        S s, t;
        sv_unpack(sv, (sv_u128)hi[i] << 64 | lo[i], &s);
        int me = (int)s.v[RC_P], o = rc_outcome(&s);
        int who = o < RC_PLAYERS ? o : o - RC_PLAYERS - 1;  /* a winner's code, or a loser's */
        mover[i] = (int8_t)me;
        status[i] = o < 0 ? 0 : o == RC_PLAYERS ? SV_DRAW : (o < RC_PLAYERS) == (who == me) ? SV_WIN : SV_LOSE;
        if (o < 0) {
            int k = rc_legal(&s, &b);
            if (k < 0) { buf_free(&b); return k; }
            int64_t first = at;
            for (int j = 0; j < k; j++) {
                int e = rc_apply(&s, &b.a[j], &t);
                if (e < 0) { buf_free(&b); return e; }
                for (int v = 0; v < RC_NI; v++)  /* what its field cannot store (codec.pack's error) */
                    if (t.v[v] < sv->low[v] || t.v[v] > sv->high[v]) { buf_free(&b); return SV_ERR_RANGE; }
                int8_t tm = (int8_t)t.v[RC_P];
                sv_canon(sv, &t, sv->keycmp);
                sv_u128 key = sv_pack(sv, &t);
                int seen = 0;  /* the children of one position are few: a look back */
                for (int64_t q = first; q < at && q < cap && !seen; q++)
                    seen = klo[q] == (uint64_t)key && khi[q] == (uint64_t)(key >> 64) && kmover[q] == tm;
                if (seen) continue;
                if (at < cap) { klo[at] = (uint64_t)key; khi[at] = (uint64_t)(key >> 64); kmover[at] = tm; }
                at++;
            }
        }
        end[i] = at;
    }
    buf_free(&b);
    return at;
}

const char *rc_solve_error(void *h) { return ((Sv *)h)->msg; }

void rc_solve_free(void *h) {
    Sv *sv = h;
    if (!sv) return;
    for (int k = 0; k < sv->nblocks; k++) {
        SvBlock *b = sv->blocks[k];
        if (sv->map) b->reach = NULL, b->val = NULL;  /* they are parts of the mapping */
        sv_tier_forget(sv, b);
        sv_dfs_close(sv, b);  /* (a depth-first solve that stopped on an error) */
        sv_free(sv, b->reach, (size_t)b->words * 8);
        sv_free(sv, b->cur, (size_t)sv_fwords(b) * 8);  /* (an un-move solve's, or reachability's) */
        sv_free(sv, b->next, (size_t)sv_fwords(b) * 8);
        if (b->prefix) sv_free(sv, b->prefix, sv_prefix_bytes(b));
        if (b->val) sv_free(sv, b->val, sv_slot_bytes(b));
        free(b->runs);
        free(b->first_at);
        sv_free(sv, b->tally, sv_tally_bytes(b));
        sv_sparse_free(sv, b);
        pthread_mutex_destroy(&b->mu);
        free(b->few);
        free(b->par);
        free(b->pturn);
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
    for (int n = SV_COMBO_CELLS + 1; n <= 64; n++)
        for (int k = 1; k <= SV_FEW_PIECES; k++)
            if (sv->few[n][k]) sv_free(sv, sv->few[n][k], sv_c(sv, n, k) * sizeof(uint64_t));
    sv_free(sv, sv->binom, (size_t)sv->bn * (size_t)sv->bn * 8);
    for (int n = 0; n <= SV_COMBO_CELLS; n++) sv_free(sv, sv->combo[n], ((size_t)1 << n) * sizeof(uint32_t));
    if (sv->ctab) sv_free(sv, sv->ctab, SV_CHUNK_TAB * sizeof(SvRank));
    for (int t = 0; t < RC_NT; t++) sv_free(sv, sv->place[t], (size_t)(sv->nplace[t] + 1) * sizeof(M));
    sv_free(sv, sv->perm, (size_t)(sv->nperm > 0 ? sv->nperm : 1) * RC_CELLS * sizeof(int32_t));
    sv_free(sv, sv->ptab, sv_tables_size(sv));
    sv_free(sv, sv->pcell, (size_t)sv_table_perms(sv) * 64);
    if (sv->stab) sv_free(sv, sv->stab, SV_TABLE_SIZE);
    sv_free(sv, sv->identity, (size_t)(sv->nperm ? sv->nperm : 1));
    if (sv->map) munmap(sv->map, sv->map_bytes);
    sv_arena_close(sv);
    pthread_mutex_destroy(&sv->lock);
    free(sv);
}

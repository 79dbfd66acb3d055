/* rulecraft native solver: the one-pass solve, when the blocks' graph has no cycle. One
   unit of solver.c's translation unit (after arcs.c; solver.c says what the solver does). */

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
    if (c->ended) { *rem = 0; return (uint8_t)c->ended; }
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
    SV_EACH_IN_UNIT(u, i) {
        S s;
        uint16_t *out, end = sv_visit(sv, w, b, i, &s, &out);
        if (end) {
            if (end != SV_DRAW && !w->levels) w->levels = 1;
            continue;
        }
        int n = sv_children(sv, w, &s, NULL);
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
            else if ((v == SV_WIN) == !w->turn[a]) { if (r < win) win = r; }
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

/* the bytes the values and running counts of the blocks reached in memory would take */
static uint64_t sv_one_pass_need(const Sv *sv) {
    uint64_t need = 0;
    for (int k = 0; k < sv->nblocks; k++) {
        const SvBlock *b = sv->blocks[k];
        uint64_t n = b->count;
        if (!b->keys) {
            n = 0;
            for (uint64_t wd = 0; wd < b->words; wd++) n += (uint64_t)__builtin_popcountll(b->reach[wd]);
            need += sv_prefix_bytes(b);
        }
        need += b->ended ? 0 : n * 2;
    }
    return need;
}

/* each block's count, running counts and room for its values: in memory, or out of core
   (tiers.c) when the solve is, or asks to be (sv->out_of_core 1), or when they would pass
   the cap (-1); the positions to solve (0 on an error) */
static uint64_t sv_one_pass_room(Sv *sv, int *top) {
    int weigh = !sv->arena && sv->out_of_core < 0 && sv->max_memory;  /* (in memory so far) */
    if ((sv->arena || sv->out_of_core == 1 || (weigh && sv->used + sv_one_pass_need(sv) > sv->max_memory))
        && sv_tiers_spill(sv))
        return 0;
    uint64_t todo = 0;
    for (int k = 0; k < sv->nblocks; k++) {
        SvBlock *b = sv->blocks[k];
        if (sv_prefix(sv, b)) return 0;
        if (b->height > *top) *top = b->height;
        if (b->ended) {
            sv->terminal += b->count;
            if (sv->levels < 1 && b->ended != SV_DRAW)
                sv->levels = 1;
        } else {
            if (!(b->val = sv_block_alloc(sv, b, b->count * 2))) return 0;
            todo += b->count;
        }
        sv->ndense += b->count;
        if (sv->arena) sv_tier_drop(sv, b);  /* (the pages its counts touched) */
    }
    return todo;
}

/* the blocks solved by increasing height, each in one pass over its reached positions */
static void sv_one_pass(Sv *sv) {
    int top = 0;
    uint64_t todo = sv_one_pass_room(sv, &top);
    if (sv_failed(sv)) return;
    sv->phase = 2;
    sv->todo = todo;
    sv->done_before = 0;
    sv->one_pass_t0 = sv_now();
    for (int h = 0; h <= top && !sv_failed(sv); h++) {
        if (sv->arena && sv_tiers_hold(sv, h)) return;
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
    if (sv->arena && !sv_failed(sv)) sv_tiers_hold(sv, -1);  /* read back from the file as asked */
}

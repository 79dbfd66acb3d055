/* rulecraft native solver: the graph of the reached positions, for the retrograde solve
   over arcs. One unit of solver.c's translation unit (after reach.c; solver.c says what
   the solver does). */

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
    if (total >= (sv->swap ? SV_ARC_TURN : UINT32_MAX))
        sv_fail(sv, SV_ERR_POSITIONS, "%llu positions: the native solver numbers them in %d bits",
                (unsigned long long)total, sv->swap ? 31 : 32);
}

static int sv_cmp_u32(const void *a, const void *b) {
    uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;
    return (x > y) - (x < y);
}

/* each reached position's mover, status and distinct children, in the unit's arc buffer
   (with the players' swap, SV_ARC_TURN marks an arc on which the mover changes) */
static void sv_arcs_unit(Sv *sv, SvWork *w, SvUnit *u) {
    SvBlock *b = u->b;
    SV_EACH_IN_UNIT(u, i) {
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
        int n = sv_children(sv, w, &s, NULL);
        if (n < 0) return;
        for (int a = 0; a < n; a++)
            w->kids[a] = (uint32_t)sv_dense(w->cb[a], w->ci[a]) | (sv->swap && w->turn[a] ? SV_ARC_TURN : 0);
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
    if (sv_failed(sv) || sv_units(sv, SV_ALL)) return;
    sv->phase = 1;
    sv->todo = n;
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

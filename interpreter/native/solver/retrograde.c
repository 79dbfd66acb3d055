/* rulecraft native solver: the retrograde solve over stored arcs. One unit of solver.c's
   translation unit (after unmoves.c; solver.c says what the solver does). */

/* ------------------------------------------------------------------ retrograde */
/* level by level from the ends (solver._retrograde): the first win found is the quickest,
   the last child refuted gives the longest loss; what no level decides is a draw */
static void sv_retrograde(Sv *sv) {
    uint64_t n = sv->ndense;
    uint64_t *pstart = sv_alloc(sv, (n + 1) * 8);
    uint32_t *parents = sv_alloc(sv, sv->narcs * 4 + 4);
    uint32_t *left = sv_alloc(sv, n * 4 + 4);
    uint32_t *front = sv_alloc(sv, n * 4 + 4), *next = sv_alloc(sv, n * 4 + 4);
    sv->values = sv_alloc(sv, n + 1);
    sv->rem = sv_alloc(sv, n * 4 + 4);
    if (sv_failed(sv)) goto out;
    sv_tick(sv, "parents");
    /* with the players' swap, an arc's SV_ARC_TURN (whether the mover changes on it) goes
       with it to its parent's entry */
    uint32_t id = sv->swap ? ~SV_ARC_TURN : UINT32_MAX;
    for (uint64_t e = 0; e < sv->narcs; e++) pstart[(sv->arcs[e] & id) + 1]++;
    for (uint64_t d = 0; d < n; d++) pstart[d + 1] += pstart[d];
    for (uint64_t p = 0; p < n; p++)
        for (uint64_t e = sv->offsets[p]; e < sv->offsets[p + 1]; e++)
            parents[pstart[sv->arcs[e] & id]++] = (uint32_t)p | (sv->arcs[e] & ~id);
    for (uint64_t d = n; d > 0; d--) pstart[d] = pstart[d - 1];
    pstart[0] = 0;
    uint64_t nf = 0, solved;
    for (uint64_t d = 0; d < n; d++) {
        left[d] = (uint32_t)(sv->offsets[d + 1] - sv->offsets[d]);
        uint8_t st = sv->status[d];
        if (st) {
            sv->values[d] = st;
            sv->terminal++;
            if (st != SV_DRAW) front[nf++] = (uint32_t)d;
        } else if (left[d] == 0) {  /* no legal ply and no end rule fired: the mover loses */
            sv->values[d] = SV_LOSE;
            front[nf++] = (uint32_t)d;
        }
    }
    solved = nf;
    int level = 0;
    char text[200], a[32], b[32];
    while (nf && !sv_failed(sv)) {
        uint64_t nn = 0;
        uint32_t r1 = (uint32_t)level + 1;
        for (uint64_t f = 0; f < nf; f++) {
            uint32_t c = front[f];
            int c_wins = sv->values[c] == SV_WIN;
            uint8_t mc = sv->mover[c];
            for (uint64_t k = pstart[c]; k < pstart[c + 1]; k++) {
                uint32_t p = parents[k] & id;
                if (sv->values[p]) continue;
                int same = sv->swap ? !(parents[k] & SV_ARC_TURN) : sv->mover[p] == mc;
                if (c_wins == same) {  /* the parent's mover wins by moving to c */
                    sv->values[p] = SV_WIN;
                    sv->rem[p] = r1;
                    next[nn++] = p;
                } else if (--left[p] == 0) {
                    sv->values[p] = SV_LOSE;
                    sv->rem[p] = r1;
                    next[nn++] = p;
                }
            }
        }
        uint32_t *tmp = front;
        front = next;
        next = tmp;
        nf = nn;
        solved += nn;
        level++;
        sv_count(a, sizeof a, solved);
        sv_count(b, sizeof b, n);
        snprintf(text, sizeof text, "retrograde, level %d: %s of %s decided", level, a, b);
        sv_tick(sv, text);
    }
    sv->levels = level;
    for (uint64_t d = 0; d < n; d++)
        if (!sv->values[d]) sv->values[d] = SV_DRAW;
out:
    sv_free(sv, pstart, (n + 1) * 8);
    sv_free(sv, parents, sv->narcs * 4 + 4);
    sv_free(sv, left, n * 4 + 4);
    sv_free(sv, front, n * 4 + 4);
    sv_free(sv, next, n * 4 + 4);
}

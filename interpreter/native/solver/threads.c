/* rulecraft native solver: phases run on the threads over units of positions; progress.
   One unit of solver.c's translation unit (after bits.c; solver.c says what the solver
   does). */

/* ------------------------------------------------------------------ threads, progress */
static void sv_count(char *out, size_t n, uint64_t v) {  /* 1234567 -> "1,234,567" */
    char digits[32];
    int len = snprintf(digits, sizeof digits, "%llu", (unsigned long long)v), k = 0;
    for (int i = 0; i < len && (size_t)k + 2 < n; i++) {
        if (i && (len - i) % 3 == 0) out[k++] = ',';
        out[k++] = digits[i];
    }
    out[k] = 0;
}

static uint64_t sv_sum(Sv *sv, size_t field) {
    uint64_t total = 0;
    for (int t = 0; t < sv->threads; t++)
        total += __atomic_load_n((uint64_t *)((char *)&sv->work[t] + field), __ATOMIC_RELAXED);
    return total;
}

/* at most once a second, from the calling thread: progress text to the callback, which may
   ask to stop */
static void sv_tick(Sv *sv, const char *extra) {
    double now = sv_now();
    if (!sv->cb || now - sv->last < 1.0) return;
    sv->last = now;
    char text[400], a[32], b[32], c[32];
    double spent = now - sv->phase_t0;
    uint64_t done = sv_sum(sv, offsetof(SvWork, done));
    double rate = spent > 0 ? (double)done / spent : 0.0;
    sv_count(c, sizeof c, sv->used);
    if (extra) {
        snprintf(text, sizeof text, "native solve: %s (%s bytes)", extra, c);
    } else if (sv->phase == 0) {
        sv_count(a, sizeof a, sv->positions + sv_sum(sv, offsetof(SvWork, found)));
        sv_count(b, sizeof b, done);
        snprintf(text, sizeof text, "native solve: reachability, sweep %d: %s positions found, %s "
                 "expanded (%.0f a second; %s bytes)", sv->depth, a, b, rate, c);
    } else if (sv->phase == 2) {
        uint64_t all = sv->done_before + done;
        double total = now - sv->one_pass_t0, r = total > 0 ? (double)all / total : 0.0;
        sv_count(a, sizeof a, all);
        sv_count(b, sizeof b, sv->todo);
        snprintf(text, sizeof text, "native solve: one pass, %s of %s positions (%.0f a second, "
                 "about %.0f s left; %s bytes)", a, b, r,
                 r > 0 && sv->todo > all ? (double)(sv->todo - all) / r : 0.0, c);
    } else if (sv->phase == 4) {
        sv_count(a, sizeof a, done);
        snprintf(text, sizeof text, "native solve: depth first, %s positions solved (%.0f a "
                 "second; %s bytes)", a, rate, c);
    } else if (sv->phase == 3) {
        sv_count(a, sizeof a, done);
        snprintf(text, sizeof text, "native solve: un-moves, level %d: %s positions taken back "
                 "(%.0f a second; %s bytes)", sv->undo_level + 1, a, rate, c);
    } else {
        sv_count(a, sizeof a, done);
        sv_count(b, sizeof b, sv->todo);
        double left = rate > 0 && sv->todo > done ? (double)(sv->todo - done) / rate : 0.0;
        snprintf(text, sizeof text, "native solve: %s, %s of %s positions (%.0f a second, "
                 "about %.0f s left; %s bytes)", sv->undo ? "children counted" : "arcs", a, b,
                 rate, left, c);
    }
    if (sv->cb(text)) sv_fail(sv, SV_ERR_STOP, "interrupted");
}

static void *sv_thread(void *arg) {
    SvWork *w = arg;
    Sv *sv = w->sv;
    while (!sv_failed(sv)) {
        size_t u = __atomic_fetch_add(&sv->next_unit, 1, __ATOMIC_RELAXED);
        if (u >= sv->nunits) break;
        sv->fn(sv, w, &sv->units[u]);
        if (w->tid == 0) sv_tick(sv, NULL);
    }
    return NULL;
}

/* `body` on each thread's SvWork: the calling thread's first, the others started and
   joined (one that could not start runs here after) */
static void sv_on_threads(Sv *sv, void *(*body)(void *)) {
    pthread_t tid[SV_MAX_THREADS];
    int made[SV_MAX_THREADS] = {0};
    for (int t = 1; t < sv->threads; t++) made[t] = !pthread_create(&tid[t], NULL, body, &sv->work[t]);
    body(&sv->work[0]);
    for (int t = 1; t < sv->threads; t++) {
        if (made[t]) pthread_join(tid[t], NULL);
        else body(&sv->work[t]);
    }
}

/* `fn` over every unit, on the threads; the per-thread counters start at zero */
static void sv_run(Sv *sv, SvUnitFn fn) {
    sv->fn = fn;
    sv->next_unit = 0;
    sv->phase_t0 = sv_now();
    for (int t = 0; t < sv->threads; t++) sv->work[t].done = sv->work[t].found = 0;
    sv_on_threads(sv, sv_thread);
}

enum { SV_ALL = -2, SV_FOUND = -1, SV_LEVEL = -3 };  /* sv_units: which positions */

/* the units over the blocks' positions: all those reached (SV_ALL); those reachability
   found in the last sweep (SV_FOUND: in a sparse block's list, a dense one's frontier);
   the frontier of an un-move level (SV_LEVEL, by sv_fwords); or all those reached in the
   blocks of one height that are not ended (a height >= 0) */
static int sv_units(Sv *sv, int which) {
    sv->nunits = 0;
    for (int i = 0; i < sv->nblocks; i++) {
        SvBlock *b = sv->blocks[i];
        const uint64_t *keys = NULL;
        uint64_t n = b->words;
        if (which == SV_FOUND && sv->tiered && b->tier != sv->tier_now) continue;  /* (tiers.c) */
        if (which == SV_FOUND && b->sparse) {
            keys = b->walk;
            n = b->nwalk;
        } else if (which == SV_FOUND || which == SV_LEVEL) {
            if (!b->cur_any) continue;
            if (which == SV_LEVEL) n = sv_fwords(b);
        } else {
            if (which >= 0 && (b->height != which || b->ended)) continue;
            if (b->keys) {
                keys = b->keys;
                n = b->count;
            }
        }
        uint64_t step = keys ? 64 * SV_UNIT_WORDS : SV_UNIT_WORDS;  /* the same indices a unit */
        for (uint64_t w = 0; w < n; w += step) {
            SvUnit *p = sv_grow(sv, sv->units, &sv->capunits, sv->nunits + 1, sizeof *p, 1024);
            if (!p) return RC_ERR_MEMORY;
            sv->units = p;
            SvUnit u = {b, w, w + step < n ? w + step : n, NULL, 0, 0, keys};
            sv->units[sv->nunits++] = u;
        }
    }
    return 0;
}

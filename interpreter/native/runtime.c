/* rulecraft native back-end: the fixed entry points every game's library exports
   (flat states and actions for ctypes, perft, random playouts), after the game's code,
   whose rc_legal, rc_apply and rc_outcome they call (rulecraft.h declares both sides). */

static void st_in(const uint64_t *f, S *s) {
    for (int k = 0; k < RC_NC; k++) for (int w = 0; w < RC_W; w++) s->c[k].w[w] = f[k * RC_W + w];
    for (int j = 0; j < RC_NI; j++) s->v[j] = (int64_t)f[RC_NC * RC_W + j];
}

static void st_out(const S *s, uint64_t *f) {
    for (int k = 0; k < RC_NC; k++) for (int w = 0; w < RC_W; w++) f[k * RC_W + w] = s->c[k].w[w];
    for (int j = 0; j < RC_NI; j++) f[RC_NC * RC_W + j] = (uint64_t)s->v[j];
}

static void act_in(const int64_t *f, A *a) {
    a->r = (int32_t)f[0]; a->x[0] = (int32_t)f[1]; a->x[1] = (int32_t)f[2]; a->x[2] = (int32_t)f[3];
    for (int w = 0; w < RC_W; w++) a->rem.w[w] = (uint64_t)f[4 + w];
}

static void act_out(const A *a, int64_t *f) {
    f[0] = a->r; f[1] = a->x[0]; f[2] = a->x[1]; f[3] = a->x[2];
    for (int w = 0; w < RC_W; w++) f[4 + w] = (int64_t)a->rem.w[w];
}

/* the library's shape: cells, words a mask, cell slots, int slots, rules, players */
void rc_info(int64_t *out) {
    out[0] = RC_CELLS; out[1] = RC_W; out[2] = RC_NC; out[3] = RC_NI; out[4] = RC_RULES; out[5] = RC_PLAYERS;
}

/* the legal actions (at most `cap` written, 4 + RC_W numbers each); their count, or an error */
int rc_flat_legal(const uint64_t *st, int64_t *out, int cap) {
    S s; Buf b = {0};
    st_in(st, &s);
    int n = rc_legal(&s, &b);
    for (int i = 0; i < n && i < cap; i++) act_out(&b.a[i], out + (size_t)i * (4 + RC_W));
    buf_free(&b);
    return n;
}

int rc_flat_apply(const uint64_t *st, const int64_t *a, uint64_t *out) {
    S s, t; A x;
    st_in(st, &s); act_in(a, &x);
    int e = rc_apply(&s, &x, &t);
    if (e == 0) st_out(&t, out);
    return e;
}

int rc_flat_outcome(const uint64_t *st) { S s; st_in(st, &s); return rc_outcome(&s); }

/* ---- perft: leaves of the game tree to a depth (the last level counted, not made) */
static int64_t perft_rec(const S *s, int depth, Buf *bufs) {
    int n = rc_legal(s, &bufs[0]);
    if (n < 0 || depth == 1) return n;
    int64_t total = 0;
    for (int i = 0; i < n; i++) {
        S child;
        int e = rc_apply(s, &bufs[0].a[i], &child);
        if (e < 0) return e;
        int64_t k = perft_rec(&child, depth - 1, bufs + 1);
        if (k < 0) return k;
        total += k;
    }
    return total;
}

typedef struct { const S *root; const A *acts; int n, depth, stride, first; int64_t total; } PerftJob;

static void *perft_worker(void *arg) {
    PerftJob *j = arg;
    Buf *bufs = calloc((size_t)j->depth, sizeof(Buf));
    if (!bufs) { j->total = RC_ERR_MEMORY; return NULL; }
    for (int i = j->first; i < j->n && j->total >= 0; i += j->stride) {
        S child;
        int e = rc_apply(j->root, &j->acts[i], &child);
        int64_t k = e < 0 ? e : perft_rec(&child, j->depth - 1, bufs);
        j->total = k < 0 ? k : j->total + k;
    }
    for (int d = 0; d < j->depth; d++) buf_free(&bufs[d]);
    free(bufs);
    return NULL;
}

/* perft(depth) from a flat state on `threads` threads (root plies shared out); the count or an error */
int64_t rc_perft(const uint64_t *st, int depth, int threads) {
    S s; Buf root = {0};
    st_in(st, &s);
    if (depth == 0) return 1;
    int n = rc_legal(&s, &root);
    if (n < 0 || depth == 1) { buf_free(&root); return n; }
    if (threads < 1) threads = 1;
    if (threads > 64) threads = 64;
    PerftJob jobs[64]; pthread_t tid[64]; int made[64] = {0};
    for (int k = 0; k < threads; k++) {
        jobs[k] = (PerftJob){&s, root.a, n, depth, threads, k, 0};
        if (k) made[k] = !pthread_create(&tid[k], NULL, perft_worker, &jobs[k]);
    }
    perft_worker(&jobs[0]);
    for (int k = 1; k < threads; k++)  /* a thread that could not start: its share here */
        if (!made[k]) perft_worker(&jobs[k]);
    int64_t total = jobs[0].total;
    for (int k = 1; k < threads; k++) {
        if (made[k]) pthread_join(tid[k], NULL);
        if (total >= 0) total = jobs[k].total < 0 ? jobs[k].total : total + jobs[k].total;
    }
    buf_free(&root);
    return total;
}

/* ---- random playouts: game i draws from splitmix64 seeded with seed ^ (i + 1) * golden,
   a ply chosen as next() % count (analysis.SplitMix is the same generator in Python) */
static inline uint64_t splitmix_next(uint64_t *x) {
    uint64_t z = (*x += 0x9E3779B97F4A7C15ULL);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL;
    return z ^ (z >> 31);
}

/* stats: wins of each player, draws, unfinished games, plies, then losses of each player
   (an `X loses` outcome of three players or more) */
#define RC_STATS (2 * RC_PLAYERS + 3)
typedef struct { S root; int64_t games, max_plies; uint64_t seed; int stride, first; int64_t st[RC_STATS]; int err; } PlayJob;

static void *playout_worker(void *arg) {
    PlayJob *j = arg;
    Buf b = {0};
    for (int64_t g = j->first; g < j->games && !j->err; g += j->stride) {
        uint64_t x = j->seed ^ ((uint64_t)(g + 1) * 0x9E3779B97F4A7C15ULL);
        S s = j->root, t;
        int64_t n = 0;
        while (n < j->max_plies) {
            int k = rc_legal(&s, &b);
            if (k < 0) { j->err = k; break; }
            if (k == 0) break;
            int e = rc_apply(&s, &b.a[splitmix_next(&x) % (uint64_t)k], &t);
            if (e < 0) { j->err = e; break; }
            s = t;
            n++;
        }
        j->st[RC_PLAYERS + 2] += n;
        int o = rc_outcome(&s);
        if (o >= 0 && o < RC_PLAYERS) j->st[o] += 1;
        else if (o == RC_PLAYERS) j->st[RC_PLAYERS] += 1;
        else if (o > RC_PLAYERS) j->st[o + 2] += 1;  /* o = RC_PLAYERS + 1 + loser */
        else j->st[RC_PLAYERS + 1] += 1;
    }
    buf_free(&b);
    return NULL;
}

/* `games` random games from a flat state: RC_STATS stats (see PlayJob) */
int rc_playouts(const uint64_t *st, int64_t games, uint64_t seed, int64_t max_plies, int threads, int64_t *stats) {
    if (threads < 1) threads = 1;
    if (threads > 64) threads = 64;
    PlayJob *jobs = calloc((size_t)threads, sizeof(PlayJob));
    pthread_t tid[64]; int made[64] = {0};
    if (!jobs) return RC_ERR_MEMORY;
    for (int k = 0; k < threads; k++) {
        st_in(st, &jobs[k].root);
        jobs[k].games = games; jobs[k].max_plies = max_plies; jobs[k].seed = seed;
        jobs[k].stride = threads; jobs[k].first = k;
        if (k) made[k] = !pthread_create(&tid[k], NULL, playout_worker, &jobs[k]);
    }
    playout_worker(&jobs[0]);
    for (int k = 1; k < threads; k++)
        if (!made[k]) playout_worker(&jobs[k]);
    int err = jobs[0].err;
    for (int i = 0; i < RC_STATS; i++) stats[i] = jobs[0].st[i];
    for (int k = 1; k < threads; k++) {
        if (made[k]) pthread_join(tid[k], NULL);
        if (jobs[k].err) err = jobs[k].err;
        for (int i = 0; i < RC_STATS; i++) stats[i] += jobs[k].st[i];
    }
    free(jobs);
    return err;
}


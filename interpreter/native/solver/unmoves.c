/* rulecraft native solver: the retrograde solve by un-moves, when every ply can be taken
   back (RC_UNDO). One unit of solver.c's translation unit (after one_pass.c; solver.c says
   what the solver does). */

/* ------------------------------------------------------------------ un-moves */
/* Cyclic games whose plies can all be taken back (cundo.py: RC_UNDO) are solved without
   arcs, in the one-pass solve's storage: per block, 2 bytes a reached position, holding
   while undecided its count of distinct children not yet known to be bad for its mover,
   then its value | remoteness << 2. A first pass counts the children and finds the ends;
   then level by level from the ends, each position decided at the last level gives its
   predecessors (sv_preds) a win, or one child fewer (a loss when none is left), at the
   next: the levels, values and remoteness of the retrograde solve over arcs. */
#if RC_UNDO
static uint16_t sv_arr_share(Sv *sv, SvWork *w, const S *p, int plies, int alone);  /* arrangements.c */
static inline SvBlock *sv_arr_block(const Sv *sv, const S *s);
static int sv_arr_stab(const Sv *sv, const S *s);
static int sv_arr_later(Sv *sv);
static int sv_arr_compact(Sv *sv, SvBlock *b);

/* the position whose predecessors are made (sv_preds), in canonical form but perhaps for
   the players' swap: `c`, its occupied cells, its piece counts, its types' ranks (`rt`,
   sv_rank_from, if `ranked`), whether no symmetry but the identity keeps its slot compared
   first (`alone`, sv_alone_memo), its block's id and whether it is the swap's image
   (`turned`), and its cells of the types UNDO_READS names, hashed (`reads`) */
typedef struct {
    S c;
    M occ;
    int64_t cnt[RC_NT];
    uint64_t rt[RC_NT];
    int ranked, alone, id, turned;
    uint64_t reads;
} SvChild;

/* ch->reads, from its cells (sv_first_leads) */
static void sv_child_reads(SvChild *ch) {
    uint64_t h = 0;
    for (int t = 0; t < RC_NT; t++)
        for (int i = 0; i < RC_W && UNDO_READS > 0 && (UNDO_READS >> t & 1); i++)
            h = (h ^ ch->c.c[t].w[i]) * 0x9E3779B97F4A7C15ull;
    ch->reads = h;
}

/* the block of position `s` (put in canonical form) and its index there, `*idx`, asked of
   memory: its value's slot, `*slot`, where the block's values are in runs (every
   arrangement's solve), else its bit and its count of reached positions before it (read
   by sv_take_back; `*slot` NULL); NULL if no block of positions not ended holds it (lookups
   only: no block is made). `ch`, the position `s` was made from (a type's rank is taken from
   it where the cells of that type and those before it are its); `*alone`: whether no
   symmetry but the identity keeps the slot compared first (sv_alone_memo) */
static SvBlock *sv_indexed(Sv *sv, SvWork *w, S *s, uint64_t *idx, uint16_t **slot, const SvChild *ch,
                           int *alone) {
    /* in canonical form as it stands where it leaves that slot of `ch` as it is (sv_kept) */
    *alone = 1;
    if (!(ch->alone && m_eq(s->c[sv->cmp[0]], ch->c.c[sv->cmp[0]]) && !(sv->swap && s->v[RC_P])))
        *alone = sv_canon_memo(sv, w, s);
    SvBlock *b = sv->arrangements ? sv_arr_block(sv, s) : sv_hinted(sv, w, s, &w->hint, 0);
    uint64_t rt[RC_NT];
    if (!b || b->ended || sv_rank_from(sv, b, s, ch->ranked ? &ch->c : NULL, ch->rt, rt, idx)) return NULL;
    *slot = NULL;
    if (b->runs) {  /* (the run's rank is the first type's: rt[0]) */
        *slot = &b->val[b->runs[rt[0]] + (*idx - rt[0] * b->rstride)];  /* (asked by sv_settle) */
    } else if (!b->keys) {
        __builtin_prefetch(&b->reach[*idx >> 6]);
        __builtin_prefetch(&b->prefix[*idx >> 9]);
    }
    return b;
}

static int sv_same(const S *a, const S *b) {
    for (int i = 0; i < RC_NC; i++) if (!m_eq(a->c[i], b->c[i])) return 0;
    for (int j = 0; j < RC_NI; j++) if (a->v[j] != b->v[j]) return 0;
    return 1;
}

/* the legal plies of `p` that `rule` may make, in `out`: those of the piece on cell `o`
   when o >= 0, and then perhaps only those to cell `x` (all of them when a compulsory
   capture decides among the rules); their number, or an error */
static int sv_plies(const S *p, int rule, int o, int x, Buf *out) {
    if (!UNDO_PLAIN) return rc_legal(p, out);
    out->n = 0;
    int64_t ph = p->v[RC_P] * UNDO_NPH + p->v[RC_PH];
    if (ph < 0 || ph >= RC_PLAYERS * UNDO_NPH || !UNDO_TAKES[ph * RC_RULES + rule]) return 0;
    if (rule == RC_RULES - 1) return buf_push(out, act(rule, 0, 0, 0, m_zero())) ? RC_ERR_MEMORY : 1;
    int e = o >= 0 ? UNDO_MOVES[rule](p, out, m_bit(o), m_bit(x)) : UNDO_MOVES[rule](p, out, FULL, FULL);
    return e < 0 ? e : out->n;
}

/* `key` (block id << 40 | index) noted as a predecessor, the `*n`-th; -1 on an error */
static int sv_push_pred(Sv *sv, SvWork *w, size_t *n, uint64_t key) {
    if (*n == w->cappk) {
        uint64_t *pk = sv_grow(sv, w->pk, &w->cappk, *n + 1, sizeof *pk, 256);
        if (!pk) return -1;
        w->pk = pk;
    }
    w->pk[(*n)++] = key;
    return 0;
}

/* a predecessor put to wait for sv_settle: its value's `slot`, its `key`, what it is
   refuted by (`by`), and whether its mover `wins` by the position taken back; -1 on an
   error (every arrangement's solve, which knows the slot when it finds it) */
static int sv_push_pend(Sv *sv, SvWork *w, uint16_t *slot, uint64_t key, uint16_t by, int wins) {
    if (w->npend == w->cappend) {
        SvPend *pend = sv_grow(sv, w->pend, &w->cappend, w->npend + 1, sizeof *pend, 2 * SV_PEND);
        if (!pend) return -1;
        w->pend = pend;
    }
    w->pend[w->npend++] = (SvPend){slot, key, by, (uint8_t)wins};
    return 0;
}

/* how many of `p`'s legal plies of rule `rule` (from cell `o` to cell `x`; any, for a
   pass) lead to `c` (every arrangement's solve counts plies: arrangements.c) */
static int sv_leads(SvWork *w, const S *p, int rule, int o, int x, const S *c) {
    /* an ended candidate has no plies; rc_outcome's question whether a candidate is stuck
       is not asked: a stuck one has no plies either (a phase that allows a pass is never
       stuck) */
    if (p->v[RC_OUT] >= 0) return 0;
    /* (k < 0: not a position the rules reach; none of them stops on an error) */
    int k = sv_plies(p, rule, o, x, &w->ubuf), n = 0;
    for (int a = 0; a < k; a++) {
        const A *ply = &w->ubuf.a[a];
        if (ply->r != rule || (o >= 0 && (ply->x[1] != o || ply->x[2] != x))) continue;
        S t;
        n += !rc_apply(p, ply, &t) && sv_same(&t, c);
    }
    return n;
}

/* `p`, a predecessor of `ch` by `plies` plies, noted if reached (put in canonical form);
   -1 on an error. Solving every arrangement, put to wait for sv_settle at once, with what
   it takes from its count of plies (sv_arr_share) */
static int sv_pred_note(Sv *sv, SvWork *w, S *p, const SvChild *ch, size_t *n, int plies) {
    int turned = p->v[RC_P] != ch->c.v[RC_P];  /* (before the players' swap, sv_indexed) */
    uint64_t idx;
    uint16_t *slot;
    int alone;
    SvBlock *b = sv_indexed(sv, w, p, &idx, &slot, ch, &alone);
    if (!b) return 0;
    uint64_t key = (uint64_t)b->id << 40 | idx | (sv->swap && turned ? SV_TURN : 0);
    if (!sv->arrangements) return sv_push_pred(sv, w, n, key);
    ++*n;
    /* (its mover wins by `c` when c is won by a mover who changed, or lost by one who did
       not) */
    return sv_push_pend(sv, w, slot, key, sv_arr_share(sv, w, p, plies, alone), w->cwins == !turned);
}

/* sv_leads of `p`, the first candidate of entry `e` (from cell `o` to `x`) in parent block
   `pb` that is checked for `ch`: remembered by the pair of blocks, the entry and the cells
   that decide it (UNDO_READS: the end rules read no others, and nothing else on the way
   reads a cell), so that most positions taken back ask it of no candidate */
static int sv_first_leads(SvWork *w, const SvBlock *pb, int e, const S *p, int o, int x, const SvChild *ch) {
    if (UNDO_READS < 0) return sv_leads(w, p, UNDO_RULE[e], o, x, &ch->c);
    uint64_t blocks = (uint64_t)pb->id << 32 | (uint32_t)ch->id;
    int entry = e << 1 | ch->turned;
    size_t h = (size_t)(((blocks * 0xC2B2AE3D27D4EB4Full) ^ ch->reads ^ (uint64_t)entry * 0x165667B19E3779F9ull)
                        >> (64 - SV_LEADS_BITS));
    SvLeads *m = &w->leads[h];
    int same = m->plies1 && m->blocks == blocks && m->entry == entry;
    for (int t = 0; t < RC_NT && same; t++)
        same = !(UNDO_READS >> t & 1) || m_eq(m->cells[t], ch->c.c[t]);
    if (same) return m->plies1 - 1;
    int k = sv_leads(w, p, UNDO_RULE[e], o, x, &ch->c);
    m->blocks = blocks;
    m->entry = entry;
    for (int t = 0; t < RC_NT; t++) m->cells[t] = ch->c.c[t];
    m->plies1 = k + 1;
    return k;
}

/* `p` noted as a predecessor of `ch` if any of its legal plies of rule `rule` (from cell
   `o` to cell `x`; any, for a pass) lead to it; -1 on an error */
static int sv_pred_try(Sv *sv, SvWork *w, S *p, int rule, int o, int x, const SvChild *ch, size_t *n) {
    int k = sv_leads(w, p, rule, o, x, &ch->c);
    return k ? sv_pred_note(sv, w, p, ch, n, k) : 0;
}

/* the positions of `pb` (a block of few positions, sv_few) with a child `kid` (block id
   << 40 | index; with the players' swap, on arcs where the mover changes or not) noted
   as predecessors; -1 on an error */
static int sv_few_preds(Sv *sv, SvWork *w, const SvBlock *pb, uint64_t kid, size_t *n) {
    for (int turn = 0; turn <= sv->swap; turn++) {
        uint64_t want = kid | (turn ? SV_TURN : 0);
        size_t lo = 0, hi = pb->nfew;
        while (lo < hi) {
            size_t mid = (lo + hi) / 2;
            if (pb->few[mid].kid < want) lo = mid + 1;
            else hi = mid;
        }
        for (; lo < pb->nfew && pb->few[lo].kid == want; lo++)
            if (sv_push_pred(sv, w, n, (uint64_t)pb->id << 40 | pb->few[lo].at | (want & SV_TURN)))
                return -1;
    }
    return 0;
}

/* the key of the positions whose swap of the players (sv_swap) block `k` holds */
static void sv_swap_key(const Sv *sv, const SvKey *k, SvKey *out) {
    *out = *k;
    for (int t = 0; t < RC_NT; t++) out->cnt[sv->swap_type[t]] = k->cnt[t];
    sv_swap_ints(sv, out->v);
    for (int h = 0; h < RC_NC - RC_NT; h++) out->hist[h] = sv_swap_mask(sv, k->hist[h]);
}

/* the candidates of parent key `pk` (its slots in `p`) whose plies of entry `e` put a
   piece down or took one off (UNDO_DELTA) and may lead to `ch`: that piece lifted, or put
   back on an empty cell; -1 on an error */
static int sv_count_preds(Sv *sv, SvWork *w, const SvKey *pk, int e, const S *p, const SvChild *ch,
                          size_t *n) {
    int t = UNDO_TYPE[e], delta = UNDO_DELTA[e];
    const S *c = &ch->c;
    for (int u = 0; u < RC_NT; u++)  /* the parent has one piece of type t fewer, or more */
        if (pk->cnt[u] - ch->cnt[u] != (u == t ? -delta : 0)) return 0;
    M cells = delta > 0 ? c->c[t] : m_andn(m_and(sv->cells[t], UNDO_REV[(size_t)e * RC_CELLS]), ch->occ);
    while (m_any(cells)) {
        int o = m_poplow(&cells);
        S back = *p;
        back.c[t] = delta > 0 ? m_andn(c->c[t], m_bit(o)) : m_or(c->c[t], m_bit(o));
        if (sv_pred_try(sv, w, &back, UNDO_RULE[e], -1, -1, ch, n)) return -1;
    }
    return 0;
}

/* the predecessors of `ch` in parent block `pb` noted; -1 on an error */
static int sv_key_preds(Sv *sv, SvWork *w, const SvBlock *pb, const SvChild *ch, size_t *n) {
    const SvKey *pk = &pb->key;
    const S *c = &ch->c;
    M occ = ch->occ;
    S p = *c;
    for (int j = 0; j < RC_NI; j++) p.v[j] = pk->v[j];
    for (int h = 0; h < RC_NC - RC_NT; h++) p.c[RC_NT + h] = pk->hist[h];
    if (UNDO_PASS) {
        S same = p;
        if (sv_pred_try(sv, w, &same, RC_RULES - 1, -1, -1, ch, n)) return -1;
    }
    int same = !memcmp(pk->cnt, ch->cnt, sizeof ch->cnt);
    for (int e = 0; e < UNDO_N; e++) {
        if (UNDO_PLAYER[e] != pk->v[RC_P]) continue;
        if (UNDO_DELTA[e]) {
            if (sv_count_preds(sv, w, pk, e, &p, ch, n)) return -1;
            continue;
        }
        if (!same) continue;
        int t = UNDO_TYPE[e];
        /* an exact entry's candidates all lead to `c` by as many plies, or none does: known
           at the first; so do those of an entry checked by its lands function (cundo.py,
           lands_checked) that land, by one ply each: `sure` (-1 not known yet; 2 if the
           first led by other than one ply, and each is then made) */
        int leads = UNDO_EXACT[e] ? -1 : 0, plies = 0, sure = -1;
        int (*lands)(const S *, int, int, int, int64_t) = UNDO_LANDS[e];
        M pieces = m_and(c->c[t], UNDO_LAND[e]);
        while (m_any(pieces) && leads != 2) {
            int x = m_poplow(&pieces);
            /* (a piece moved back off the cells it can stand on makes no position) */
            M from = m_andn(m_and(UNDO_REV[(size_t)e * RC_CELLS + (size_t)x], sv->cells[t]), occ);
            const M *path = UNDO_PATH[e] ? UNDO_PATH[e] + (size_t)x * RC_CELLS : NULL;
            const int *steps = UNDO_STEPS[e] ? UNDO_STEPS[e] + (size_t)x * RC_CELLS : NULL;
            while (m_any(from)) {
                int o = m_poplow(&from);
                if (path && m_any(m_and(path[o], occ))) continue;  /* its way is blocked */
                S back = p;
                back.c[t] = m_or(m_andn(c->c[t], m_bit(x)), m_bit(o));
                if (leads < 0) {
                    plies = sv_first_leads(w, pb, e, &back, o, x, ch);
                    leads = plies ? 1 : 2;
                }
                if (leads == 2) break;
                int way = lands && sure != 2 ? (steps ? steps[o] : 1) : 0, err;
                if (way && !lands(&back, t, o, x, way)) continue;
                if (way && sure < 0) {
                    int k = sv_first_leads(w, pb, e, &back, o, x, ch);
                    sure = k == 1 ? 1 : k ? 2 : 0;
                    if (!sure) { leads = 2; break; }
                }
                if (leads) err = sv_pred_note(sv, w, &back, ch, n, plies);
                else if (way && sure == 1) err = sv_pred_note(sv, w, &back, ch, n, 1);
                else err = sv_pred_try(sv, w, &back, UNDO_RULE[e], o, x, ch, n);
                if (err) return -1;
            }
        }
    }
    return 0;
}

/* `ch` made of position `c` of block `cb` (ranks `rt`, alone as sv_alone_memo says) */
static void sv_child(const Sv *sv, SvChild *ch, const SvBlock *cb, const S *c, const uint64_t *rt,
                     int alone) {
    ch->c = *c;
    ch->occ = m_zero();
    for (int t = 0; t < RC_NT; t++) ch->occ = m_or(ch->occ, c->c[t]);
    memcpy(ch->cnt, cb->key.cnt, sizeof ch->cnt);
    memcpy(ch->rt, rt, sizeof ch->rt);
    ch->ranked = 1;
    ch->alone = alone;
    ch->id = cb->id;
    ch->turned = 0;
    sv_child_reads(ch);
}

/* `ch` made of the swap of the players' image of position `c` of block `cb` (player 1 to
   move), in canonical form under the board's symmetries (not where a slot holds the
   previous ply's cells: a block's key holds those as they are). Made from it with its own
   key, a parent block's positions whose mover changes on the way to `c`'s class are in that
   block's frame as found: they are not swapped one by one (one swap a position taken back). */
static void sv_child_turned(Sv *sv, SvWork *w, SvChild *ch, const SvBlock *cb, const S *c) {
    ch->c = *c;
    sv_swap_any(sv, &ch->c);
    ch->alone = 0;
    if (sv->nperm >= 2 && RC_NC == RC_NT) {
        sv_canon_images(sv, &ch->c, sv->cmp);
        ch->alone = sv_alone_memo(sv, w, &ch->c);
    }
    SvKey k;
    sv_swap_key(sv, &cb->key, &k);
    memcpy(ch->cnt, k.cnt, sizeof ch->cnt);
    ch->occ = m_zero();
    for (int t = 0; t < RC_NT; t++) ch->occ = m_or(ch->occ, ch->c.c[t]);
    M used0 = m_zero();  /* its types' ranks, where each stands on its own cells */
    ch->ranked = sv->flat;
    for (int i = 0; i < RC_NT && ch->ranked; i++) {
        int t = sv->order[i];
        M u = m_andn(sv->cells[t], used0);
        ch->ranked = !m_any(m_andn(ch->c.c[t], u));
        if (ch->ranked) ch->rt[i] = sv_colex(sv, ch->c.c[t], u);
        used0 = m_or(used0, ch->c.c[t]);
    }
    ch->id = cb->id;
    ch->turned = 1;
    sv_child_reads(ch);
}

/* the distinct reached predecessors of `c` (index `ci` of block `cb`, ranks w->crt), in
   w->pk (with the players' swap, SV_TURN set where the mover changes on the way: a parent
   may reach `c`'s class both ways); their number or -1. A parent block's positions are
   made from its key, and with the swap, those whose mover changes from its key too, as
   predecessors of `c`'s swap (sv_child_turned). */
static int sv_preds(Sv *sv, SvWork *w, const SvBlock *cb, uint64_t ci, const S *c) {
    size_t n = 0;
    SvChild ch, turned;
    int made = 0;  /* (turned: made when first asked) */
    sv_child(sv, &ch, cb, c, w->crt, w->calone);
    for (int q = 0; q < cb->npar; q++) {
        const SvBlock *pb = cb->par[q];
        if (pb->few) {  /* its arcs listed: no candidates to make */
            if (sv_few_preds(sv, w, pb, (uint64_t)cb->id << 40 | ci, &n)) return -1;
            continue;
        }
        /* (with the swap: parents of each key only where reachability met arcs of them) */
        if ((!sv->swap || cb->pturn[q] & 1) && sv_key_preds(sv, w, pb, &ch, &n)) return -1;
        if (sv->swap && cb->pturn[q] & 2) {
            if (!made++) sv_child_turned(sv, w, &turned, cb, c);
            if (sv_key_preds(sv, w, pb, &turned, &n)) return -1;
        }
    }
    if (sv->arrangements) return (int)n;  /* each candidate and ply once, waiting already */
    uint64_t *k = w->pk;
    sv_sort_u64(k, n);
    size_t m = 0;
    for (size_t a = 0; a < n; a++) {  /* the distinct ones reachability met */
        const SvBlock *b = sv->blocks[(k[a] & ~SV_TURN) >> 40];
        uint64_t i = k[a] & (((uint64_t)1 << 40) - 1);
        if ((m == 0 || k[a] != k[m - 1]) && sv_reached(b, i)) k[m++] = k[a];
    }
    return (int)m;
}

/* each block's parents, from the children reachability noted; 0 or an error */
static int sv_parents(Sv *sv) {
    for (int k = 0; k < sv->nblocks; k++) sv->blocks[k]->npar = sv->blocks[k]->loop;
    for (int j = 0; j < sv->nblocks; j++)
        for (int i = 0; i < sv->blocks[j]->nkids; i++) sv->blocks[j]->kids[i]->npar++;
    for (int k = 0; k < sv->nblocks; k++) {
        SvBlock *b = sv->blocks[k];
        b->par = calloc((size_t)b->npar + 1, sizeof *b->par);
        b->pturn = calloc((size_t)b->npar + 1, 1);
        if (!b->par || !b->pturn) { sv_fail(sv, RC_ERR_MEMORY, "out of memory"); return RC_ERR_MEMORY; }
        b->npar = 0;
        if (b->loop) {
            b->pturn[b->npar] = b->kturn[SV_MAX_KIDS];
            b->par[b->npar++] = b;
        }
    }
    for (int j = 0; j < sv->nblocks; j++)
        for (int i = 0; i < sv->blocks[j]->nkids; i++) {
            SvBlock *c = sv->blocks[j]->kids[i];
            c->pturn[c->npar] = sv->blocks[j]->kturn[i];
            c->par[c->npar++] = sv->blocks[j];
        }
    return 0;
}

static int sv_cmp_arc(const void *a, const void *b) {
    const SvArc *x = a, *y = b;
    if (x->kid != y->kid) return x->kid < y->kid ? -1 : 1;
    return (x->at > y->at) - (x->at < y->at);
}

/* the arcs of each block of at most SV_FEW positions (a start block, say), sorted by
   child: its positions are found as predecessors by lookup, not by un-moves made for
   every position of its child blocks; 0 or an error */
static int sv_few(Sv *sv) {
    SvWork *w = &sv->work[0];
    for (int k = 0; k < sv->nblocks; k++) {
        SvBlock *b = sv->blocks[k];
        if (b->ended || b->count > SV_FEW) continue;
        size_t n = 0, cap = 16;
        b->few = malloc(cap * sizeof *b->few);
        if (!b->few) { sv_fail(sv, RC_ERR_MEMORY, "out of memory"); return RC_ERR_MEMORY; }
        SV_EACH_IN_BLOCK(b, i) {
            S s;
            sv_unrank(sv, b, i, &s);
            int m = rc_outcome(&s) >= 0 ? 0 : sv_children(sv, w, &s, NULL);
            if (m < 0) return -1;
            for (int a = 0; a < m; a++) {
                if (n == cap) {  /* (on failure the list so far is let go with the block) */
                    SvArc *p = realloc(b->few, 2 * cap * sizeof *p);
                    if (!p) { sv_fail(sv, RC_ERR_MEMORY, "out of memory"); return RC_ERR_MEMORY; }
                    b->few = p;
                    cap *= 2;
                }
                b->few[n++] = (SvArc){(uint64_t)w->cb[a]->id << 40 | w->ci[a] |
                                      (sv->swap && w->turn[a] ? SV_TURN : 0), i};
            }
        }
        qsort(b->few, n, sizeof *b->few, sv_cmp_arc);
        b->nfew = n;
    }
    return sv->err;
}

/* index `i` of `b`, its value's slot at `slot`, put on the next level's frontier (a bit
   an index, or a sparse block's a bit a local id); by plain writes where the solve runs
   on `one` thread */
static inline void sv_mark_on(SvBlock *b, uint64_t i, const uint16_t *slot, int one) {
    uint64_t f = b->keys ? (uint64_t)(slot - b->val) : i;
    if (one) {
        b->next[f >> 6] |= (uint64_t)1 << (f & 63);
        b->cur_any = 1;
        return;
    }
    sv_set_bit(b->next, f);
    __atomic_store_n(&b->cur_any, 1, __ATOMIC_RELAXED);
}

static inline void sv_mark(SvBlock *b, uint64_t i, const uint16_t *slot) { sv_mark_on(b, i, slot, 0); }

/* an undecided position's slot: its count `m` of distinct children; a loss with none */
static void sv_set_count(Sv *sv, SvBlock *b, uint64_t i, uint16_t *out, uint64_t m) {
    if (m > SV_MAX_REM) {
        sv_fail(sv, SV_ERR_INDEX, "more than %d distinct children: too many for the un-move "
                "solve", SV_MAX_REM);
        return;
    }
    *out = (uint16_t)(m << 2);
    if (!m) {  /* no legal ply and no end rule fired: the mover loses */
        *out = SV_LOSE;
        sv_mark(b, i, out);
    }
}

/* the children counted; the positions with no child or ended on the frontier (b->next) */
static void sv_count_unit(Sv *sv, SvWork *w, SvUnit *u) {
    SvBlock *b = u->b;
    if (b->ended || b->tallied) {  /* the frontier of level 0 as they stand (sv_undo); counted */
        if (u->keys) w->done += u->w1 - u->w0;
        else for (uint64_t wd = u->w0; wd < u->w1; wd++)
            w->done += (uint64_t)__builtin_popcountll(b->reach[wd]);
        return;
    }
    SV_EACH_IN_UNIT(u, i) {
        S s;
        uint16_t *out, end = sv_visit(sv, w, b, i, &s, &out);
        if (end) {
            if (end != SV_DRAW) sv_mark(b, i, out);
            continue;
        }
        int n = sv_children(sv, w, &s, NULL);
        if (n < 0) return;
        uint64_t m = n ? sv_distinct(w, n) : 0;
        w->arcs += m;
        sv_set_count(sv, b, i, out, m);
    }
}

/* a block's children counts and ends, from its tally, in its values and its frontier of
   level 0 (sv_count_unit's work, without making a child: reachability made them); the
   tally let go */
static void sv_untally(Sv *sv, SvBlock *b) {
    SvWork *w = &sv->work[0];
    uint64_t d = 0;
    SV_EACH_IN_BLOCK(b, i) {
        uint8_t code = b->tally[b->keys ? d : i];
        uint16_t *out = &b->val[d++];
        if (code > SV_TALLY_END) {
            *out = (uint16_t)(code - SV_TALLY_END);
            w->ends++;
            if (*out != SV_DRAW) sv_mark(b, i, out);
            continue;
        }
        uint64_t m = code;
        if (code == SV_TALLY_MORE) {
            S s;
            sv_unrank(sv, b, i, &s);
            int n = sv_children(sv, w, &s, NULL);
            if (n < 0) return;
            m = sv_distinct(w, n);  /* (its arcs are counted: sv_tally) */
        }
        sv_set_count(sv, b, i, out, m);
    }
    sv_free(sv, b->tally, sv_tally_bytes(b));
    b->tally = NULL;
    b->tallied = 1;
    char text[100];
    snprintf(text, sizeof text, "children counted in reachability: block %d of %d", b->id + 1,
             sv->nblocks);
    sv_tick(sv, text);
}

/* what predecessor `p`, its slot holding `old` (undecided), becomes at level `r1`: a
   win where its mover wins by the position taken back, else one child (or share) fewer,
   a loss when none is left; 0 where `old` has fewer to refute (an error) */
static inline uint16_t sv_settled(const SvPend *p, uint16_t old, uint16_t r1) {
    if (p->wins) return (uint16_t)(SV_WIN | r1 << 2);
    if (old >> 2 < p->by) return 0;
    return old >> 2 == p->by ? (uint16_t)(SV_LOSE | r1 << 2) : (uint16_t)(old - (p->by << 2));
}

/* the predecessors waiting (w->pend) given their due at this level (sv_settled); those
   decided put on the next level's frontier. Each slot is asked of memory SV_AHEAD
   predecessors before it is settled (every arrangement's solve finds a thousand
   predecessors, a batch of SV_PEND, with none asked: perf found the solve slower where each
   was asked as it was found); the others' were asked as found too. On one thread a slot is
   written as it is read: no other writes it (a locked exchange would hold back the loads
   behind it). */
static void sv_settle(Sv *sv, SvWork *w) {
    uint16_t r1 = (uint16_t)(sv->undo_level + 1);
    int one = sv->threads == 1;
    for (size_t a = 0; a < w->npend && a < SV_AHEAD; a++) __builtin_prefetch(w->pend[a].slot, 1);
    for (size_t a = 0; a < w->npend; a++) {
        if (a + SV_AHEAD < w->npend) __builtin_prefetch(w->pend[a + SV_AHEAD].slot, 1);
        const SvPend *p = &w->pend[a];
        uint16_t *slot = p->slot, old = __atomic_load_n(slot, __ATOMIC_RELAXED), nv;
        do {
            if (old & 3) break;
            if (!(nv = sv_settled(p, old, r1))) {
                sv_fail(sv, SV_ERR_INDEX, "a predecessor with no child left to refute");
                w->npend = 0;
                return;
            }
            if (one) *slot = nv;
        } while (!one && !__atomic_compare_exchange_n(slot, &old, nv, 0, __ATOMIC_RELAXED,
                                                       __ATOMIC_RELAXED));
        if (!(old & 3) && (nv & 3))
            sv_mark_on(sv->blocks[(p->key & ~SV_TURN) >> 40], p->key & (((uint64_t)1 << 40) - 1),
                       slot, one);
    }
    w->npend = 0;
}

/* the slot of position `i` of `b` (not ended), `rts` its types' ranks (sv_unrank_at): in
   its run without a division where its values are in runs (the run is the first type's
   rank) */
static inline uint16_t *sv_slot_ranked(const SvBlock *b, uint64_t i, const uint64_t *rts) {
    return b->runs ? &b->val[b->runs[rts[0]] + (i - rts[0] * b->rstride)] : &b->val[sv_local(b, i)];
}

/* the value (SV_WIN, ...) of position `i` of `b`, `rts` its types' ranks */
static inline int sv_value_ranked(const SvBlock *b, uint64_t i, const uint64_t *rts) {
    return b->ended ? b->ended : *sv_slot_ranked(b, i, rts) & 3;
}

/* position `i` of `b`, decided at the last level, unranked into `c` (which holds another
   position of `b` if `known`): its predecessors found and put to wait for sv_settle */
static void sv_take_back(Sv *sv, SvWork *w, SvBlock *b, uint64_t i, S *c, int known) {
    sv_unrank_next(sv, b, i, c, w->crt, known);
    w->done++;
    int c_wins = sv_value_ranked(b, i, w->crt) == SV_WIN;
    w->cwins = c_wins;
    w->calone = sv->nperm > 1 && sv_alone_memo(sv, w, c);
    if (sv->arrangements) w->cstab = w->calone ? 1 : sv_arr_stab(sv, c);
    int n = sv_preds(sv, w, b, i, c);
    if (n < 0) return;
    if (!sv->arrangements) {  /* (every arrangement's solve put them to wait as it found them) */
        size_t room = w->cappend;
        SvPend *pend = sv_grow(sv, w->pend, &room, w->npend + (size_t)n, sizeof *pend, 2 * SV_PEND);
        if (!pend) return;
        w->pend = pend;
        w->cappend = room;
        for (int a = 0; a < n; a++) {
            uint64_t key = w->pk[a];
            SvBlock *pb = sv->blocks[(key & ~SV_TURN) >> 40];
            int turn = sv->swap ? (key & SV_TURN) != 0 : pb->key.v[RC_P] != c->v[RC_P];
            uint16_t *slot = &pb->val[sv_local(pb, key & (((uint64_t)1 << 40) - 1))];
            __builtin_prefetch(slot, 1);
            pend[w->npend++] = (SvPend){slot, key, 1, (uint8_t)(c_wins == !turn)};
        }
    }
    if (w->npend >= SV_PEND) sv_settle(sv, w);
}

/* the positions of a unit decided at the last level taken back, their frontier bits
   cleared as they are read (so the bitset is clear for the level after next); every
   predecessor settled before it returns */
static void sv_undo_unit(Sv *sv, SvWork *w, SvUnit *u) {
    SvBlock *b = u->b;
    S c;  /* (the last position taken back: the next is unranked from it) */
    int known = 0;
    for (uint64_t wd = u->w0; wd < u->w1 && !sv_failed(sv); wd++) {
        uint64_t x = b->cur[wd];
        if (!x) continue;
        if (!b->ended) b->cur[wd] = 0;  /* (an ended block's frontier is all it reached) */
        for (; x && !sv_failed(sv); x &= x - 1) {
            uint64_t f = 64 * wd + (uint64_t)__builtin_ctzll(x);
            sv_take_back(sv, w, b, b->keys ? b->keys[f] : f, &c, known);
            known = 1;
        }
    }
    if (!sv_failed(sv)) sv_settle(sv, w);
    w->npend = 0;
}

static void sv_undo_levels(Sv *sv);

/* the first pass on the threads, each unit's positions' children (or plies) counted by
   `count` (`todo` of them: the progress), and the arcs and ends it met summed */
static void sv_count_pass(Sv *sv, SvUnitFn count, uint64_t todo) {
    sv->phase = 1;
    sv->todo = todo;
    sv_run(sv, count);
    for (int t = 0; t < sv->threads; t++) {
        sv->narcs += sv->work[t].arcs;
        sv->terminal += sv->work[t].ends;
        sv->work[t].arcs = sv->work[t].ends = 0;
    }
}

/* the whole solve by un-moves (see above) */
static void sv_undo(Sv *sv) {
    for (int k = 0; k < sv->nblocks && !sv_failed(sv); k++) {
        SvBlock *b = sv->blocks[k];
        if (sv_prefix(sv, b)) return;
        b->cur_any = 0;
        if (b->ended) {
            sv->terminal += b->count;
            if (b->keys && (b->next = sv_alloc(sv, (size_t)sv_fwords(b) * 8)))  /* all it reached */
                for (uint64_t d = 0; d < b->count; d++) b->next[d >> 6] |= (uint64_t)1 << (d & 63);
        } else {
            b->next = sv_alloc(sv, (size_t)sv_fwords(b) * 8);
            b->val = sv_alloc(sv, (size_t)b->count * 2);
            if (b->tally && !sv_failed(sv)) sv_untally(sv, b);  /* one block's both at once */
        }
        sv->ndense += b->count;
    }
    for (int k = 0; k < sv->nblocks && !sv_failed(sv); k++)  /* once the tallies are let go */
        if (!sv->blocks[k]->ended) sv->blocks[k]->cur = sv_alloc(sv, (size_t)sv_fwords(sv->blocks[k]) * 8);
    sv->narcs = sv->tally_arcs;
    if (sv_failed(sv) || sv_parents(sv) || sv_few(sv) || sv_units(sv, SV_ALL)) return;
    sv_count_pass(sv, sv_count_unit, sv->ndense);
    sv_undo_levels(sv);
}

/* level by level from the ends until a level decides nothing; then the undecided drawn
   and the frontiers let go */
static void sv_undo_levels(Sv *sv) {
    uint64_t solved = 0;
    char text[200], a[32], c[32];
    for (sv->undo_level = 0; !sv_failed(sv); sv->undo_level++) {
        for (int k = 0; k < sv->nblocks; k++) {  /* the frontier: what the last level decided */
            SvBlock *b = sv->blocks[k];
            if (b->ended) {  /* level 0: an ended block's won or lost positions, in place */
                int lost_or_won = b->ended != SV_DRAW;
                b->cur = sv->undo_level == 0 && lost_or_won ? (b->keys ? b->next : b->reach) : NULL;
                b->cur_any = b->cur != NULL;
                continue;
            }
            uint64_t *f = b->cur;  /* clear: sv_undo_unit cleared what it read */
            b->cur = b->next;
            b->next = f;
        }
        if (sv_units(sv, SV_LEVEL)) break;  /* (the frontiers are let go below, as after the last) */
        for (int k = 0; k < sv->nblocks; k++) sv->blocks[k]->cur_any = 0;
        /* (every arrangement's solve: its first pass decided some at level 1) */
        int later = sv->arrangements && sv->undo_level == 0 && sv_arr_later(sv);
        if (!sv->nunits && !later) break;
        if (sv->undo_level + 1 > SV_MAX_REM) {
            sv_fail(sv, SV_ERR_INDEX, "a remoteness past %d plies: too long for the un-move "
                    "solve", SV_MAX_REM);
            break;
        }
        sv->phase = 3;
        sv_run(sv, sv_undo_unit);
        for (int t = 0; t < sv->threads; t++) solved += sv->work[t].done;
        sv_count(a, sizeof a, solved);
        sv_count(c, sizeof c, sv->ndense);
        snprintf(text, sizeof text, "un-move retrograde, level %d: %s of %s decided",
                 sv->undo_level + 1, a, c);
        sv_tick(sv, text);
    }
    sv->levels = sv->undo_level;
    for (int k = 0; k < sv->nblocks; k++) {
        SvBlock *b = sv->blocks[k];
        if (b->ended) {
            b->cur = NULL;
            sv_free(sv, b->next, (size_t)sv_fwords(b) * 8);
            b->next = NULL;
            continue;
        }
        sv_free(sv, b->cur, (size_t)sv_fwords(b) * 8);
        sv_free(sv, b->next, (size_t)sv_fwords(b) * 8);
        b->cur = b->next = NULL;
        if (b->runs && sv_arr_compact(sv, b)) continue;
        for (uint64_t d = 0; d < b->count; d++) if (!(b->val[d] & 3)) b->val[d] = SV_DRAW;
    }
}
#endif

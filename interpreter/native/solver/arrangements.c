/* rulecraft native solver: the un-move solve of every arrangement of the pieces, reached
   or not, without reachability. One unit of solver.c's translation unit (after
   unmoves.c; solver.c says what the solver does). */

/* ------------------------------------------------------------------ every arrangement */
/* Where every ply can be taken back (RC_UNDO) and no ply changes a piece count, the
   positions of the start's counts are every placement of its pieces on the cells each
   type can stand on, for each player to move and phase of the turn: the blocks are known
   without a search, and so is each one's set of positions (its canonical arrangements).
   What reachability paid for, locating each child of each position, is then not needed:
   - A first pass counts each position's plies, not its distinct children: each ply is
     applied only to see whether it ends the game (a win at once, a loss not counted, a
     draw that keeps the position from losing), and of a quiet rule (one with a first_N
     generator, UNDO_FIRST: it moves a piece no end rule reads) only the first: its other
     plies end the game alike.
   - The un-move levels then take from a predecessor's count its share of each decided
     position's plies. A ply from p's class into C's is found from C's representative c
     alone: summed over the predecessors p' of c that p's class holds, the plies p' -> c
     times |Stab(p)| / |Stab(c)| are the plies from p into C's class (each counted
     |Stab(c)| times over the symmetries that map C onto itself, and each p' reached by
     |Stab(p)| of them). Counts are kept times the number of symmetries (SV_ARR_UNITS),
     so each share is whole.
   Arrangements no play reaches are solved too (a ball left in a goal, say: a ply into a
   goal ends the game, so none of them is ever a child of a position played), so the
   positions counted are arrangements, not the positions reached. */
#if RC_UNDO
/* the units a ply counts for (the symmetries' number: every stabilizer's size divides it) */
#define SV_ARR_UNITS(sv) ((sv)->nperm > 1 ? (sv)->nperm : 1)

/* how many symmetries map `s` (in canonical form) onto itself, the identity included */
static int sv_arr_stab(const Sv *sv, const S *s) {
    if (sv->nperm < 2) return 1;
    int n = 1;  /* (the identity's) */
    for (int q = 0; q < sv->nperm; q++) {
        if (sv->identity[q]) continue;
        int same = 1;  /* (the slot compared first rules out most) */
        for (int j = 0; j < RC_NC && same; j++)
            same = m_eq(sv_image(sv, s->c[sv->cmp[j]], q), s->c[sv->cmp[j]]);
        n += same;
    }
    return n;
}

/* what `plies` plies from `p` (in canonical form; `alone` as sv_alone_memo says of it) into
   position c take from p's count: plies * units * |Stab(p)| / |Stab(c)| (w->cstab) */
static uint16_t sv_arr_share(Sv *sv, SvWork *w, const S *p, int plies, int alone) {
    int stab = sv->nperm < 2 || alone ? 1 : sv_arr_stab(sv, p);
    uint64_t x = (uint64_t)plies * (uint64_t)SV_ARR_UNITS(sv);
    if (stab == w->cstab) return (uint16_t)x;  /* (mostly both 1; x within p's count) */
    x *= (uint64_t)stab;
    if (x % (uint64_t)w->cstab || x / (uint64_t)w->cstab > SV_MAX_REM) {
        sv_fail(sv, SV_ERR_INDEX, "the symmetries do not form a group: a share of plies is not whole");
        return 0;
    }
    return (uint16_t)(x / (uint64_t)w->cstab);
}

/* whether every arrangement can be solved here; else the first reason, an error */
static int sv_arr_check(Sv *sv, const S *start) {
    const char *why = NULL;
    for (int e = 0; e < UNDO_N && !why; e++) if (UNDO_DELTA[e]) why = "a ply puts pieces down or takes them off";
    if (!why && RC_NC != RC_NT) why = "the rules remember the previous ply";
    if (!why && (RC_NI != 3 || RC_P == RC_PH || RC_PH < 0)) why = "the rules keep counters or variables";
    if (!why && (start->v[RC_OUT] >= 0 || rc_outcome(start) >= 0)) why = "the start has ended";
    if (why) sv_fail(sv, SV_ERR_INDEX, "every arrangement cannot be solved: %s", why);
    return sv_failed(sv);
}

/* the blocks: the start's piece counts (with the players' swap, player 0's side), each
   player to move (only player 0 with the swap) and each phase; 0 or an error */
static int sv_arr_blocks(Sv *sv, const S *start) {
    S s = *start;
    sv_canon(sv, &s, sv->cmp);
    SvKey k;
    if (sv_key_of(sv, &s, &k)) return sv->err;
    int64_t players = sv->swap ? 1 : sv->high[RC_P] - sv->low[RC_P] + 1;
    for (int64_t p = 0; p < players; p++)
        for (int64_t ph = sv->low[RC_PH]; ph <= sv->high[RC_PH]; ph++) {
            k.v[RC_P] = sv->swap ? 0 : sv->low[RC_P] + p;
            k.v[RC_PH] = ph;
            k.v[RC_OUT] = -1;
            if (!sv_block(sv, &k)) return sv_failed(sv) ? sv->err : RC_ERR_MEMORY;
        }
    return 0;
}

/* the block of `s` (in canonical form; its piece counts the start's), by its player to
   move and its phase, the order sv_arr_blocks made them in; NULL where it has ended */
static inline SvBlock *sv_arr_block(const Sv *sv, const S *s) {
    int64_t p = sv->swap ? 0 : s->v[RC_P] - sv->low[RC_P], ph = s->v[RC_PH] - sv->low[RC_PH];
    int64_t phases = sv->high[RC_PH] - sv->low[RC_PH] + 1;
    if (s->v[RC_OUT] >= 0 || p < 0 || ph < 0 || ph >= phases || p * phases + ph >= sv->nblocks) return NULL;
    return sv->blocks[p * phases + ph];
}

/* indices `i0` to `i1` (less) of `b` set in its positions */
static void sv_arr_set_run(SvBlock *b, uint64_t i0, uint64_t i1) {
    for (uint64_t i = i0; i < i1;) {
        if ((i & 63) == 0 && i + 64 <= i1) {
            b->reach[i >> 6] = ~(uint64_t)0;
            i += 64;
        } else {
            b->reach[i >> 6] |= (uint64_t)1 << (i & 63);
            i++;
        }
    }
}

/* a block's positions: its arrangements in canonical form. The type placed first varies
   slowest and is compared first, so a run of the index is decided by its cells alone
   unless a symmetry keeps them (then each arrangement of the run is put in canonical
   form and compared). Where every type is a cell a piece (sv->flat), the values are held
   by run while solving (b->runs): a position's slot is its run's first plus its place in
   the run, found without the bitset or its counts; runs of no position hold none. */
static void sv_arr_mark(Sv *sv, SvBlock *b) {
    int t0 = sv->order[0];
    uint64_t stride = b->stride[t0], slots = 0;
    M u = sv->cells[t0];
    if (sv->flat && !(b->runs = malloc((size_t)b->radix[t0] * sizeof *b->runs))) {
        sv_fail(sv, RC_ERR_MEMORY, "out of memory");
        return;
    }
    b->rstride = stride;
    for (uint64_t r = 0; r < b->radix[t0] && !sv_failed(sv); r++) {
        M m = sv_uncolex(sv, r, (int)b->key.cnt[t0], m_pop(u), u);
        int below = 0, tie = 0;
        for (int q = 0; q < sv->nperm && !below; q++) {
            if (sv->identity[q]) continue;
            int c = sv_mcmp(sv_image(sv, m, q), m);
            below = c < 0;
            tie |= c == 0;
        }
        if (b->runs) b->runs[r] = slots;
        if (below) continue;
        slots += stride;
        if (!tie) {
            sv_arr_set_run(b, r * stride, (r + 1) * stride);
            continue;
        }
        for (uint64_t i = r * stride; i < (r + 1) * stride; i++) {
            S s, t;
            sv_unrank(sv, b, i, &s);
            t = s;
            sv_canon(sv, &t, sv->cmp);
            if (sv_same(&s, &t)) b->reach[i >> 6] |= (uint64_t)1 << (i & 63);
        }
    }
    b->nslots = slots;
}

/* a block's values moved from their runs to their places among its positions (in place:
   no position's slot is before its place) and the room past them let go; 0 or an error */
static int sv_arr_compact(Sv *sv, SvBlock *b) {
    uint64_t d = 0;
    SV_EACH_IN_BLOCK(b, i) b->val[d++] = b->val[sv_local(b, i)];
    uint16_t *val = sv_shrink(sv, b->val, sv_slot_bytes(b), (size_t)b->count * 2);
    if (!val) return -1;
    b->val = val;
    free(b->runs);
    b->runs = NULL;
    return 0;
}

/* what the first pass remembers through a unit: the last child block (`v` its int slots)
   and the last position (`s`, its types' ranks `rts`, if `known`); the index `i` of the
   position counted and, where another block's first pass is this one's (`at`: the block's
   first_at), the rules whose plies that did not end the game it has `seen` */
typedef struct {
    int64_t v[RC_NI];
    SvBlock *c;
    S s;
    uint64_t rts[RC_NT];
    int known;
    uint64_t i, *at;
    unsigned char seen[RC_RULES];
} SvArrMemo;

/* the block of child `t` of position `s` of `b`, from the child's int slots (its counts
   are the parent's), the block edge noted (sv_edge); `memo` remembers the last; NULL
   after an error */
static SvBlock *sv_arr_child_block(Sv *sv, SvBlock *b, const S *s, const S *t, SvArrMemo *memo) {
    if (memo->c && !memcmp(memo->v, t->v, sizeof memo->v)) return memo->c;
    SvKey k, sk;
    if (sv_key_of(sv, t, &k)) return NULL;
    if (sv->swap && t->v[RC_P] == 1) {
        sv_swap_key(sv, &k, &sk);
        k = sk;
    }
    SvBlock *c = sv_find(sv, &k, sv_hash(&k));
    if (!c) {
        sv_fail(sv, SV_ERR_INDEX, "a ply leads out of the arrangements solved (its player to move "
                "or phase is not one of theirs)");
        return NULL;
    }
    if (sv_edge(sv, b, c, sv->swap && t->v[RC_P] != s->v[RC_P])) return NULL;
    memcpy(memo->v, t->v, sizeof memo->v);
    memo->c = c;
    return c;
}

/* what a position's plies add up to in the first pass: the units of those after which
   the game goes on, whether one ends it as a draw (`keep`: the position is never lost) or
   in a win for the mover, and how many there are */
typedef struct { uint64_t count; int keep, won, plies; } SvArrTally;

/* `k` plies from `s` of `b` that lead alike (a quiet rule's: `ply` the first) tallied:
   `ply` applied to see whether it ends the game, and where not, its child's block noted
   (sv_arr_child_block); 0 or an error */
static inline __attribute__((always_inline)) int sv_arr_tally(Sv *sv, SvBlock *b, const S *s, const A *ply,
                                                             int k, SvArrTally *y, SvArrMemo *memo) {
    S t;
    int e = rc_apply(s, ply, &t);
    if (e < 0) return e;
    y->plies += k;
    if (t.v[RC_OUT] < 0) {
        if (!sv_arr_child_block(sv, b, s, &t, memo)) return SV_ERR_INDEX;
        if (memo->at && !memo->seen[ply->r]) {  /* (the first a unit meets, if none is known) */
            uint64_t none = ~(uint64_t)0;
            memo->seen[ply->r] = 1;
            __atomic_compare_exchange_n(&memo->at[ply->r], &none, memo->i, 0, __ATOMIC_RELAXED, __ATOMIC_RELAXED);
        }
        y->count += (uint64_t)SV_ARR_UNITS(sv) * (uint64_t)k;
        return 0;
    }
    uint8_t v = sv_end_value((int)t.v[RC_OUT], t.v[RC_P]);  /* for the child's mover */
    if (v == SV_DRAW) y->keep = 1;
    else y->won |= (v == SV_WIN) != (t.v[RC_P] != s->v[RC_P]);  /* the mover wins by it */
    return 0;
}

/* the legal plies of `s` (of `b`) tallied rule by rule, as rc_legal lists them, but of a
   quiet rule (UNDO_FIRST) only the first applied: its others lead alike (rc_legal itself
   where a compulsory capture filters the phase's plies as a whole); 0 or an error. Every
   ply is still met: each block edge is noted (sv_parents). */
static int sv_arr_plies(Sv *sv, SvWork *w, SvBlock *b, const S *s, SvArrTally *y, SvArrMemo *memo) {
    Buf *out = &w->buf;
    if (!UNDO_PLAIN) {
        int n = rc_legal(s, out), e = n < 0 ? n : 0;
        for (int a = 0; a < n && e >= 0; a++) e = sv_arr_tally(sv, b, s, &out->a[a], 1, y, memo);
        return e;
    }
    int64_t ph = s->v[RC_P] * UNDO_NPH + s->v[RC_PH];
    if (s->v[RC_OUT] >= 0 || ph < 0 || ph >= RC_PLAYERS * UNDO_NPH) return 0;
    const unsigned char *takes = UNDO_TAKES + ph * RC_RULES;
    for (int r = 0; r < RC_RULES - 1; r++) {
        if (!takes[r]) continue;
        int e = 0, k;
        if (UNDO_FIRST[r]) {
            A a;
            if ((k = UNDO_FIRST[r](s, &a)) > 0) e = sv_arr_tally(sv, b, s, &a, k, y, memo);
        } else {
            out->n = 0;
            e = UNDO_MOVES[r](s, out, FULL, FULL);
            for (int a = 0; a < out->n && e >= 0; a++) e = sv_arr_tally(sv, b, s, &out->a[a], 1, y, memo);
        }
        if (e < 0) return e;
    }
    if (!takes[RC_RULES - 1]) return 0;
    A pass = act(RC_RULES - 1, 0, 0, 0, m_zero());
    return sv_arr_tally(sv, b, s, &pass, 1, y, memo);
}

/* position `i` of `b`: its plies counted (times the units), or its value where it is
   stuck (level 0, on b->next) or a ply ends the game in a win or every ply in a loss
   (level 1, on b->later) */
static void sv_arr_count(Sv *sv, SvWork *w, SvBlock *b, uint64_t i, SvArrMemo *memo) {
    sv_unrank_next(sv, b, i, &memo->s, memo->rts, memo->known);  /* (a unit is of one block) */
    memo->known = 1;
    memo->i = i;
    const S *s = &memo->s;
    w->done++;
    uint16_t *out = sv_slot_ranked(b, i, memo->rts);
    SvArrTally y = {0, 0, 0, 0};
    int e = sv_arr_plies(sv, w, b, s, &y, memo);
    if (e < 0) {
        if (!sv_failed(sv)) sv_fail(sv, e, "the rules stopped on an error");
        return;
    }
    if (y.plies == 0) {  /* stuck: rc_outcome says who wins */
        *out = sv_end_value(rc_outcome(s), s->v[RC_P]);
        if (*out != SV_DRAW) sv_mark(b, i, out);
        w->ends++;
        return;
    }
    w->arcs += y.count / (uint64_t)SV_ARR_UNITS(sv);
    if (y.won) {
        *out = (uint16_t)(SV_WIN | 1 << 2);
        sv_set_bit(b->later, i);
        return;
    }
    if (y.count + (uint64_t)y.keep > SV_MAX_REM) {
        sv_fail(sv, SV_ERR_INDEX, "more than %d plies: too many for the un-move solve",
                SV_MAX_REM / SV_ARR_UNITS(sv));
        return;
    }
    *out = (uint16_t)((y.count + (uint64_t)y.keep) << 2);
    if (!y.count && !y.keep) {  /* every ply ends the game in a loss */
        *out = (uint16_t)(SV_LOSE | 1 << 2);
        sv_set_bit(b->later, i);
    }
}

static void sv_arr_count_unit(Sv *sv, SvWork *w, SvUnit *u) {
    if (u->b->alike) return;  /* (its counts are another block's: sv_arr_alike_copy) */
    SvArrMemo memo = {.c = NULL, .known = 0, .at = u->b->first_at, .seen = {0}};
    uint64_t arcs = w->arcs, ends = w->ends;
    SV_EACH_IN_UNIT(u, i) sv_arr_count(sv, w, u->b, i, &memo);
    __atomic_fetch_add(&u->b->farcs, w->arcs - arcs, __ATOMIC_RELAXED);
    __atomic_fetch_add(&u->b->fends, w->ends - ends, __ATOMIC_RELAXED);
}

/* each block whose phase's positions have the plies of an earlier phase's on the same
   board, with the same outcomes (UNDO_ALIKE), given that phase's block (b->alike) where
   the two index their arrangements alike: the first pass counts one of them; 0 or an
   error */
static int sv_arr_alike(Sv *sv) {
    for (int k = 0; k < sv->nblocks; k++) {
        SvBlock *b = sv->blocks[k], *a;
        int64_t p = b->key.v[RC_P], ph = b->key.v[RC_PH], was = UNDO_ALIKE[p * UNDO_NPH + ph];
        if (was < sv->low[RC_PH] || k - (ph - was) < 0) continue;
        a = sv->blocks[k - (ph - was)];  /* (sv_arr_blocks: a player's phases in a row) */
        if (a->key.v[RC_P] != p || a->key.v[RC_PH] != was || a->nslots != b->nslots ||
            a->count != b->count || memcmp(a->radix, b->radix, sizeof a->radix))
            continue;
        b->alike = a;
        if (!a->first_at && !(a->first_at = malloc(RC_RULES * sizeof *a->first_at))) {
            sv_fail(sv, RC_ERR_MEMORY, "out of memory");
            return RC_ERR_MEMORY;
        }
        memset(a->first_at, 0xff, RC_RULES * sizeof *a->first_at);
    }
    return 0;
}

/* the blocks whose first pass is another's (sv_arr_alike) given its counts, its frontiers
   of levels 0 and 1, and its block edges: those of its positions at first_at, whose plies
   are counted (each rule's plies that go on lead to one child block); 0 or an error */
static int sv_arr_alike_copy(Sv *sv) {
    SvWork *w = &sv->work[0];
    for (int k = 0; k < sv->nblocks && !sv_failed(sv); k++) {
        SvBlock *b = sv->blocks[k], *a = b->alike;
        if (!a) continue;
        memcpy(b->val, a->val, sv_slot_bytes(b));
        memcpy(b->next, a->next, (size_t)b->words * 8);
        memcpy(b->later, a->later, (size_t)b->words * 8);
        b->cur_any = a->cur_any;
        sv->narcs += a->farcs;
        sv->terminal += a->fends;
        SvArrMemo memo = {.c = NULL, .known = 0, .at = NULL};
        for (int r = 0; r < RC_RULES; r++) {
            if (a->first_at[r] == ~(uint64_t)0) continue;
            S s;
            SvArrTally y = {0, 0, 0, 0};
            sv_unrank(sv, b, a->first_at[r], &s);
            int e = sv_arr_plies(sv, w, b, &s, &y, &memo);
            if (e < 0) sv_fail(sv, e, "the rules stopped on an error");
        }
    }
    for (int k = 0; k < sv->nblocks; k++) {
        free(sv->blocks[k]->first_at);
        sv->blocks[k]->first_at = NULL;
    }
    return sv_failed(sv);
}

/* the positions decided at level 1 by the first pass put on the frontier of level 1
   (b->next while level 0 is taken back); whether there are any */
static int sv_arr_later(Sv *sv) {
    int found = 0;
    for (int k = 0; k < sv->nblocks; k++) {
        SvBlock *b = sv->blocks[k];
        uint64_t any = 0;
        for (uint64_t wd = 0; wd < b->words; wd++) {
            b->next[wd] |= b->later[wd];
            any |= b->later[wd];
        }
        if (any) b->cur_any = found = 1;
        sv_free(sv, b->later, (size_t)b->words * 8);
        b->later = NULL;
    }
    return found;
}

/* the whole solve of every arrangement from `start` (see above) */
static void sv_arrangements(Sv *sv, const S *start) {
    sv->tally_room = 0;
    if (sv_arr_check(sv, start) || sv_arr_blocks(sv, start)) return;
    char text[100];
    for (int k = 0; k < sv->nblocks && !sv_failed(sv); k++) {
        SvBlock *b = sv->blocks[k];
        sv_arr_mark(sv, b);
        if (sv_prefix(sv, b)) return;
        b->next = sv_alloc(sv, (size_t)b->words * 8);
        b->cur = sv_alloc(sv, (size_t)b->words * 8);
        b->later = sv_alloc(sv, (size_t)b->words * 8);
        b->val = sv_alloc(sv, sv_slot_bytes(b));
        sv->ndense += b->count;
        if (sv->max_positions && sv->ndense > sv->max_positions) {
            sv_fail(sv, SV_ERR_POSITIONS, "more than %llu arrangements",
                    (unsigned long long)sv->max_positions);
            return;
        }
        snprintf(text, sizeof text, "arrangements in canonical form: block %d of %d", k + 1, sv->nblocks);
        sv_tick(sv, text);
    }
    sv->positions = sv->ndense;
    if (sv_failed(sv) || sv_arr_alike(sv) || sv_units(sv, SV_ALL)) return;
    uint64_t todo = sv->ndense;  /* (the progress: positions of blocks whose counts are another's left out) */
    for (int k = 0; k < sv->nblocks; k++) todo -= sv->blocks[k]->alike ? sv->blocks[k]->count : 0;
    sv_count_pass(sv, sv_arr_count_unit, todo);  /* (it notes the block edges sv_parents reads) */
    if (sv_failed(sv) || sv_arr_alike_copy(sv) || sv_parents(sv)) return;
    sv_undo_levels(sv);
}
#endif

/* rulecraft native solver: the solve out of core, by tiers. One unit of solver.c's
   translation unit (after sparse.c; solver.c says what the solver does).

   Out of core, the blocks' large arrays (bitsets, lists, running counts, values) live in
   the arena (arena.c), and the memory cap counts only the blocks the solve holds.

   - Reachability takes the tiers one at a time when the model gives a quantity no ply
     raises (tier_weight: the pieces of the kinds no rule ever adds, less those of the kinds
     none ever removes; dsl/monotone.py): it expands the highest tier with positions
     waiting until it has none, then lets that tier's blocks go (a sparse block's list
     made first). It holds the tier it expands and the blocks its plies reach. Should a ply
     ever raise the tier (the model misread), the solve stops before it marks the child,
     with an error the Python solver takes over from (sv_edge).
   - The one-pass solve holds a height at a time: its blocks and the blocks their plies
     move into.
   So the memory such a solve needs follows its largest tier, not the whole game. */

/* block `b` let go: its arrays in the arena written back and dropped, no longer counted */
static void sv_tier_drop(Sv *sv, SvBlock *b) {
    uint64_t w = b->words * 8;
    if (sv_in_arena(sv, b->reach)) sv_arena_drop(sv, b->reach, w);
    if (sv_in_arena(sv, b->cur)) sv_arena_drop(sv, b->cur, w);
    if (sv_in_arena(sv, b->prefix)) sv_arena_drop(sv, b->prefix, sv_prefix_bytes(b));
    if (sv_in_arena(sv, b->val)) sv_arena_drop(sv, b->val, b->count * 2);
    if (sv_in_arena(sv, b->keys)) sv_arena_drop(sv, b->keys, b->count * 8);
    if (sv_in_arena(sv, b->dir)) sv_arena_drop(sv, b->dir, (b->ndir + 1) * 8);
    if (b->held) __atomic_sub_fetch(&sv->used, b->abytes, __ATOMIC_RELAXED);
    b->held = 0;
}

/* block `b` read through once the solve is done: out of core, the pages read dropped (a
   solution's counts, file or copy would otherwise make the whole arena resident) */
static void sv_tier_read(Sv *sv, SvBlock *b) {
    if (sv->arena && !b->held) sv_tier_drop(sv, b);
}

/* block `b` held (counted); 0 or an error (the memory cap) */
static int sv_tier_hold(Sv *sv, SvBlock *b) {
    if (b->held) return 0;
    if (sv_charge(sv, b->abytes)) return RC_ERR_MEMORY;
    b->held = 1;
    return 0;
}

/* every block held (a solve that reads them all at random); 0 or an error */
static int sv_tiers_hold_all(Sv *sv) {
    for (int k = 0; k < sv->nblocks; k++)
        if (sv_tier_hold(sv, sv->blocks[k])) return RC_ERR_MEMORY;
    return 0;
}

/* an array of block `b` moved from memory into the arena (its pages then dropped); NULL
   on an error */
static void *sv_tier_move(Sv *sv, SvBlock *b, void *p, uint64_t bytes) {
    if (sv_in_arena(sv, p)) return p;
    void *q = sv_arena_take(sv, b, bytes);
    if (!q) return NULL;
    memcpy(q, p, bytes);
    sv_free(sv, p, (size_t)bytes);
    sv_arena_drop(sv, q, bytes);
    return q;
}

/* a finished block's list (a sparse block's, made now) and directory moved into the
   arena; 0 or an error */
static int sv_tier_list(Sv *sv, SvBlock *b) {
    if (b->sparse && sv_sparse_finish(sv, b)) return RC_ERR_MEMORY;
    if (!b->keys) return 0;
    uint64_t *keys = sv_tier_move(sv, b, b->keys, b->count * 8);
    if (!keys) return RC_ERR_MEMORY;
    b->keys = keys;
    uint64_t *dir = sv_tier_move(sv, b, b->dir, (b->ndir + 1) * 8);
    if (!dir) return RC_ERR_MEMORY;
    b->dir = dir;
    return 0;
}

/* the one-pass solve's blocks moved out of core, when they were reached in memory: their
   bitsets or lists into the arena; none held; 0 or an error */
static int sv_tiers_spill(Sv *sv) {
    if (!sv->arena && sv_arena_open(sv)) return RC_ERR_MEMORY;
    for (int k = 0; k < sv->nblocks; k++) {
        SvBlock *b = sv->blocks[k];
        if (b->held) sv_tier_drop(sv, b);
        if (b->keys ? sv_tier_list(sv, b) : !(b->reach = sv_tier_move(sv, b, b->reach, b->words * 8)))
            return RC_ERR_MEMORY;
    }
    return 0;
}

/* the blocks of height `h` (none: -1) held, with the blocks their plies move into; the
   others let go; 0 or an error (the memory cap) */
static int sv_tiers_hold(Sv *sv, int h) {
    for (int k = 0; k < sv->nblocks; k++) sv->blocks[k]->want = 0;
    for (int k = 0; k < sv->nblocks; k++) {
        SvBlock *b = sv->blocks[k];
        if (b->height != h || b->ended) continue;
        b->want = 1;
        for (int i = 0; i < b->nkids; i++) b->kids[i]->want = 1;
    }
    for (int k = 0; k < sv->nblocks; k++)
        if (sv->blocks[k]->held && !sv->blocks[k]->want) sv_tier_drop(sv, sv->blocks[k]);
    for (int k = 0; k < sv->nblocks; k++)
        if (sv->blocks[k]->want && sv_tier_hold(sv, sv->blocks[k])) return RC_ERR_MEMORY;
    return 0;
}

/* tiered reachability: the highest tier with positions waiting to be expanded made the
   current one (sv->tier_now), the blocks of the tiers above it let go (their positions
   are all found); 1 when no position waits, or on an error */
static int sv_tier_next(Sv *sv) {
    int any = 0;
    int64_t top = 0;
    for (int k = 0; k < sv->nblocks; k++) {
        SvBlock *b = sv->blocks[k];
        if (!(b->sparse ? b->nadd > 0 : b->cur_any) || (any && b->tier <= top)) continue;
        top = b->tier;
        any = 1;
    }
    if (!any) return 1;
    sv->tier_now = top;
    for (int k = 0; k < sv->nblocks; k++) {
        SvBlock *b = sv->blocks[k];
        if (!b->held || b->tier <= top) continue;
        if (sv_tier_list(sv, b)) return 1;
        sv_tier_drop(sv, b);
    }
    return 0;
}

/* `b`'s arrays in the arena forgotten (they go with the arena) */
static void sv_tier_forget(Sv *sv, SvBlock *b) {
    if (sv_in_arena(sv, b->reach)) b->reach = NULL;
    if (sv_in_arena(sv, b->cur)) b->cur = NULL;
    if (sv_in_arena(sv, b->prefix)) b->prefix = NULL;
    if (sv_in_arena(sv, b->val)) b->val = NULL;
    if (sv_in_arena(sv, b->keys)) b->keys = NULL;
    if (sv_in_arena(sv, b->dir)) b->dir = NULL;
}

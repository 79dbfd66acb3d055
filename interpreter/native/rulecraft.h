/* rulecraft.h: the contract between a game's generated C and the fixed C of the native
   back-end (prelude.c, runtime.c, the solver's units, solution_index.c).

   A game's library is ONE translation unit, which cgen.generate_c writes in this order
   (a game has three libraries: the first five parts play it; with vector.c after them,
   the batches; with the last two parts after them, the solver; the last two are built
   only when a batch or a solve asks, as they take most of the compiler's time):

       the RC_* configuration macros (below)     cgen._defines and the emitters' #defines
       this header                                (prelude.c includes it)
       prelude.c                                  the mask primitives, inline
       the game's code                            tables, rules, and the functions of part 3
       runtime.c                                  flat states and actions, perft, playouts
       (vector.c                                  the batches' library only: batches, one
                                                  game; includes hops.c, ids a hop at a time)
       solver.c                                   the exact solver: includes its units
       solution_index.c                           a solve's index as a file

   cgen expands the quoted #includes of the fixed files in place (each file once), so the
   build, and the cache key it hashes, sees all of it. Everything but the exports of part 4
   is `static`: one unit, so the compiler inlines the game's rules into the solver's loops.
   With the macros of part 1 defined (-D...), the fixed files compile against this header
   alone: tests/test_native_contract.py does, for one-word and many-word masks. */
#ifndef RULECRAFT_H
#define RULECRAFT_H

/* ------------------------------------------------------------------ 1. configuration
   Defined by the generator (cgen._defines, cundo.emit_undo) before this header:

   RC_CELLS    the board's cells (cell i is bit i % 64 of word i / 64 of a mask)
   RC_W        64-bit words a mask (M) takes: max(1, ceil(RC_CELLS / 64))
   RC_NC       cell slots of a state: one mask per piece type (RC_NT of them), then the
               previous ply's remembered cells, if the game remembers any
   RC_NT       piece types (the first RC_NT cell slots)
   RC_NI       int slots of a state: player, phase, variables, reserves, previous rule, outcome
   RC_P        the int slot of the player to move (0)
   RC_PH       the int slot of the phase of the turn (1)
   RC_OUT      the int slot of the outcome (the last): -1 while the game goes on
   RC_PLAYERS  players (the native back-end plays two)
   RC_RULES    rule codes: one per ply rule and player, then the pass (the last code)
   RC_UNDO     1 when every ply can be taken back (cundo.py): the un-move tables of part 3
               are defined, and UNDO_N (entries of those tables, one per rule and piece
               type) and UNDO_NPH (phases of a turn) with them; else 0 */
#if !defined(RC_CELLS) || !defined(RC_W) || !defined(RC_NC) || !defined(RC_NT) || !defined(RC_NI) || \
    !defined(RC_P) || !defined(RC_PH) || !defined(RC_OUT) || !defined(RC_PLAYERS) || !defined(RC_RULES) || \
    !defined(RC_UNDO)
#error "rulecraft.h: define the RC_* configuration macros (part 1) first"
#endif
#if RC_UNDO && (!defined(UNDO_N) || !defined(UNDO_NPH))
#error "rulecraft.h: RC_UNDO needs UNDO_N and UNDO_NPH"
#endif

#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <stdio.h>
#include <time.h>
#include <pthread.h>

_Static_assert(RC_W >= 1 && 64 * RC_W >= RC_CELLS, "RC_W words hold RC_CELLS cells");
_Static_assert(RC_NT <= RC_NC, "a cell slot per piece type");
_Static_assert(RC_P < RC_NI && RC_PH < RC_NI && RC_OUT < RC_NI, "player, phase and outcome are int slots");

/* ------------------------------------------------------------------ 2. types, errors */
typedef struct { uint64_t w[RC_W]; } M;                  /* a set of cells */
typedef struct { M c[RC_NC]; int64_t v[RC_NI]; } S;      /* a state: cell slots, int slots */
typedef struct { int32_t r; int32_t x[3]; M rem; } A;    /* an action: rule code, up to three
                                                            integers, the cells it removes */
typedef struct { A *a; int n, cap; } Buf;                /* a growing list of actions */

/* what a function of the game's code or of the runtime returns on an error (negative;
   library.ERRORS): a variable left its range, a chain search passed its budget, memory */
#define RC_ERR_RANGE (-2)
#define RC_ERR_CHAIN (-3)
#define RC_ERR_MEMORY (-4)

/* ------------------------------------------------------------------ 3. the game's code
   What the generated code defines, and the fixed C after it calls. */

/* the legal plies of `s` in Game.legal_actions' order (compulsory capture applied), in
   out->a from 0 (out->n is reset); their number (none once the game has ended), or an
   RC_ERR_* code */
static int rc_legal(const S *s, Buf *out);

/* `*b`: the state after action `a` in `s` (a ply rc_legal lists, or a pass); 0, or an
   RC_ERR_* code */
static int rc_apply(const S *s, const A *a, S *b);

/* the chain search of chained rule `r` for a piece of type `t` from cell c0: the chains in
   rc_found, and with rc_graph.on its graph in rc_graph (prelude.c); 0, or an RC_ERR_* code
   (RC_ERR_RANGE for a rule that makes no chains) */
static int rc_chains(const S *s, int r, int t, int c0);

/* the outcome of `s`: -1 while the game goes on, a player's index for their win,
   RC_PLAYERS for a draw (a player to move who is stuck settled as the rules say) */
static int rc_outcome(const S *s);

static const M FULL;  /* every cell */

#if RC_UNDO
/* The un-move tables (cundo.emit_undo; the solver's "UN-MOVES"). An entry e is one rule
   and piece type that moves one piece from a cell to an empty one, or puts one down on an
   empty cell, or takes one off: */
static const int UNDO_RULE[UNDO_N];          /* its rule code */
static const int UNDO_PLAYER[UNDO_N];        /* the player whose rule it is */
static const int UNDO_TYPE[UNDO_N];          /* the piece type it moves, places or takes */
static const int UNDO_DELTA[UNDO_N];         /* 0: it moves a piece; +1: it puts one down (a
                                                piece lifted takes it back); -1: it takes
                                                one off (a piece put back on an empty cell
                                                takes it back) */
static const M UNDO_REV[UNDO_N * RC_CELLS];  /* [e * RC_CELLS + x]: the cells from which its
                                                motion could reach cell x, on an empty board
                                                (for a placing or taking entry: every cell) */
static const int UNDO_EXACT[UNDO_N];         /* 1: from each of those cells (not taken) its
                                                motion reaches cell x of UNDO_LAND when x is
                                                empty, with no condition, effect or end rule
                                                reading the ply: a candidate position after
                                                it is the same for all (cundo.exact_landing) */
static const M UNDO_LAND[UNDO_N];            /* the cells its plies may land on (of an exact
                                                entry; else every cell) */
static const M *const UNDO_PATH[UNDO_N];     /* [x * RC_CELLS + o]: the cells a ply from o
                                                to x passes, all empty (a slide's line), or
                                                NULL: not known */
/* [(player * UNDO_NPH + phase) * RC_RULES + rule]: whether that phase takes the rule (the
   last code, the pass: whether the phase allows one) */
static const unsigned char UNDO_TAKES[RC_PLAYERS * UNDO_NPH * RC_RULES];
static const int UNDO_PASS;                  /* some phase allows a pass */
static const int UNDO_READS;                 /* the piece types (bit t) whose cells, with the
                                                int slots, decide whether an exact or lands-
                                                checked entry's candidates lead to a position
                                                (cundo.leads_reads), or -1 */
/* [player * UNDO_NPH + phase]: the first earlier phase of that player whose positions have
   the same plies with the same outcomes as this phase's on the same board (cundo.
   alike_phases), or -1 */
static const int UNDO_ALIKE[RC_PLAYERS * UNDO_NPH];
static const int UNDO_PLAIN;                 /* no compulsory capture: a rule's plies are its
                                                generator's alone (else rc_legal's) */
/* [rule]: the generator of a rule's legal plies, those of the pieces on the first mask
   given (appended to the list; 0 or an error); of a one-cell piece, it may leave out those
   landing off the second mask (the un-move solver's check of one candidate ply) */
static int (*const UNDO_MOVES[RC_RULES - 1])(const S *, Buf *, M, M);
/* [e]: whether the piece of type t on cell c may land on cell d, n steps away with its way
   empty (the rule's limit, target and condition: cundo.lands_checked), or NULL: its
   candidates' plies are made */
static int (*const UNDO_LANDS[UNDO_N])(const S *, int t, int c, int d, int64_t n);
/* [e]: [x * RC_CELLS + o]: the steps of a ply from o to x for UNDO_LANDS (0: its plies are
   made), or NULL: one step */
static const int *const UNDO_STEPS[UNDO_N];
/* [rule]: where every ply of the rule from one position leads to the same int slots and
   outcome (it moves a piece no end rule reads, with no effect: cundo.quiet), so one child
   answers for them all, its generator that counts its plies and keeps the first; else NULL */
static int (*const UNDO_FIRST[RC_RULES])(const S *, A *);
#endif

/* ------------------------------------------------------------------ 4. the library's exports
   What ctypes calls (native/library.py, search/native_solve.py); the comments at their
   definitions say more. A state crosses as RC_NC * RC_W mask words then RC_NI int slots
   (uint64 each), an action as its rule, three integers and RC_W words of removed cells. */

/* runtime.c */
void rc_info(int64_t *out);
int rc_flat_legal(const uint64_t *st, int64_t *out, int cap);
int rc_flat_apply(const uint64_t *st, const int64_t *a, uint64_t *out);
int rc_flat_outcome(const uint64_t *st);
int64_t rc_perft(const uint64_t *st, int depth, int threads);
int rc_playouts(const uint64_t *st, int64_t games, uint64_t seed, int64_t max_plies, int threads,
                int64_t *stats);
/* vector.c (the batches' library only) */
void *rc_vec_new(const int64_t *enc, int k, const int64_t *obs, int planes, const int64_t *pos,
                 int plane, int ids);
void rc_vec_free(void *h);
int rc_vec_observe(void *h, int n, const uint64_t *states, const int64_t *pre, const int32_t *plen,
                   uint8_t *masks, float *obs);
int rc_one_legal(void *h, const uint64_t *st, const int64_t *pre, int len, int64_t *ids);
int rc_one_step(void *h, const uint64_t *st, const int64_t *pre, int len, uint64_t *out, int64_t id);
int rc_vec_step(void *h, int n, uint64_t *states, int64_t *pre, int32_t *plen, const int64_t *ids,
                int64_t *plies, int64_t max_plies, const uint64_t *initial, const uint8_t *restart,
                int penalise, float penalty, float *rewards, uint8_t *term, uint8_t *trunc,
                uint8_t *masks, float *obs, int32_t *bad);
int rc_vec_random(void *h, int n, const uint64_t *states, const int64_t *pre, const int32_t *plen,
                  uint64_t seed, int64_t *ids);

/* the solver (solver.c's units, solution_index.c). Its configuration: native_solve.py
   mirrors these structs with ctypes.Structure, and checks its mirror against
   rc_solve_config_layout. */
struct rc_solve_type {        /* a piece type, as the index places its pieces */
    int32_t size;             /* cells a piece covers: 1, or more (a wide type: at most one
                                 piece, at one of its `nplace` placements) */
    int32_t level;            /* 0: on the board; 1 or more: standing on its carrier */
    int32_t carrier;          /* the type it stands on; -1: none */
    int32_t nplace;           /* a wide type's placements in rc_solve_new's `place`; else 0 */
};

struct rc_solve_slot {        /* an int slot's field of a packed key (search/codec.py) */
    int64_t shift;            /* its lowest bit in the key */
    int64_t low, high;        /* the values it may hold (stored as value - low) */
};

struct rc_solve_config {
    int32_t threads;          /* threads to solve on (clamped to 1..64) */
    int32_t arcs_only;        /* 1: the retrograde solve over stored arcs, never the one-pass
                                 or the un-move solve */
    uint64_t max_memory;      /* bytes the solve may hold; 0: no cap */
    uint64_t max_positions;   /* reachable positions it may find; 0: no cap */
    int64_t tally_room;       /* bytes of children counts reachability may keep for the
                                 un-move solve; -1: half the memory cap (else of the RAM) */
    int64_t tally_most;       /* the largest count a tally keeps; -1: all a byte holds (251) */
    int64_t sparse_above;     /* blocks of more indices than this start sparse (a hash set,
                                 not a bitset); -1: 65,536, or none in a game with
                                 un-move tables (RC_UNDO) */
    int32_t sparse_stays;     /* 1: a sparse block never turns dense (for tests) */
    int32_t out_of_core;      /* the blocks' arrays in a temporary file, held a tier at a
                                 time (solver/tiers.c): 1 from the start, 0 never, -1 for
                                 the one-pass solve when its values would pass max_memory */
    int32_t depth_first;      /* 1: the depth-first solve first (solver/depth_first.c),
                                 reachability after it only if it meets a cycle or the
                                 memory cap; 0: never; -1: so unless out_of_core is 1 or
                                 arcs_only */
    int32_t nperm;            /* symmetries in rc_solve_new's `perm` (the identity among
                                 them); 0 or 1: none */
    int32_t swap;             /* 1: positions with the players exchanged are one (player
                                 0 to move in the one kept): the swap's cell permutation
                                 follows the symmetries in `perm`, an involution */
    int32_t swap_type[RC_NT]; /* with swap: the type each type's pieces become */
    int32_t swap_slot[RC_NI]; /* with swap: the int slot each int slot's value goes to (a
                                 reserve to its partner type's, a per-player variable to
                                 the other player's) */
    int32_t order[RC_NT];     /* the types in ranking order: wide types first, then by level
                                 (a carrier before its riders) */
    int32_t tier_weight[RC_NT];  /* a block's tier is the sum of its piece counts by these
                                 (no ply raises it, by the model: solver/tiers.c); all 0:
                                 none */
    struct rc_solve_type types[RC_NT];  /* per piece type */
    struct rc_solve_slot slots[RC_NI];  /* per int slot */    int32_t arrangements;     /* 1: every arrangement of the start's pieces solved by un-moves,
                                 reached or not, with no reachability (solver/arrangements.c) */
};

int rc_solve_config_layout(int64_t *out);
void *rc_solve_new(const struct rc_solve_config *cfg, const int32_t *perm, const uint64_t *place,
                   const uint64_t *cells);
int rc_solve_run(void *h, const uint64_t *st, int (*cb)(const char *text));
int rc_solve_output(void *h, uint64_t *lo, uint64_t *hi, uint8_t *values, uint32_t *rem);
int rc_solve_lookup(void *h, const uint64_t *st, uint32_t *rem);
int rc_solve_position(void *h, uint64_t d, uint64_t *st);
int rc_solve_counts(void *h, uint64_t *out);
void rc_solve_stats(void *h, uint64_t *out, double *seconds);
const char *rc_solve_error(void *h);
void rc_solve_free(void *h);
int rc_solve_write(void *h, const char *path);
void *rc_solve_open(const struct rc_solve_config *cfg, const int32_t *perm, const uint64_t *place,
                    const uint64_t *cells, const char *path, uint64_t offset, uint64_t size);
int rc_solve_blocks(void *h);
uint64_t rc_solve_directory(void *h, uint8_t *out);
uint64_t rc_solve_block_bytes(void *h, int k);
int rc_solve_block_body(void *h, int k, uint8_t *out);
void *rc_solve_open_lazy(const struct rc_solve_config *cfg, const int32_t *perm, const uint64_t *place,
                         const uint64_t *cells, const uint8_t *dir, uint64_t size);
void rc_solve_block_info(void *h, int k, uint64_t *out);
void rc_solve_tally(const uint16_t *val, uint64_t n, uint64_t *out);
int rc_solve_locate(void *h, const uint64_t *st, uint64_t *out);
void rc_solve_unrank(void *h, int k, uint64_t i, uint64_t *st);
int64_t rc_solve_children(void *h, int64_t n, const uint64_t *lo, const uint64_t *hi, int8_t *mover,
                          int8_t *status, int64_t *end, uint64_t *klo, uint64_t *khi, int8_t *kmover,
                          int64_t cap);

#endif

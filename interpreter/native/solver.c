/* rulecraft native back-end: the exact solver (after the game's code and runtime.c).

   The Python solver's semantics (interpreter/search/solver.py) with a compact index:

   INDEX. A position is a block and a rank in it. A block is one combination of the piece
   counts of each type, the int slots (player, phase, variables, reserves, previous rule,
   outcome) and the previous ply's cells; blocks are made as reachability meets them (a
   hash table of them), so counters need no declared range and reserves or history cost
   only the values they really take. In a block, the pieces are ranked combinatorially,
   type by type (carriers before their riders): a one-cell type chooses its cells among
   those still free at its level (a rider among its carrier's cells), a wide type (size > 1)
   its placement among the placements passed in. The rank is a mixed-radix number, so a
   block is a perfect hash of its positions. A block of many indices starts sparse
   (sparse.c): a hash set of the positions reached, then a sorted list, until it is dense
   enough for bitsets; so memory follows the positions, not the arrangements.

   SOLVING. First, unless out of core, depth first (depth_first.c): each position solved
   when first reached, from its children's values, so each child is made once; it gives
   up (and forgets its blocks) on a cycle, at the memory cap, or when its pages of values
   cost too much a position. Then reachability breadth-first over the blocks' bitsets (1 bit an index, 2 more for
   the blocks on the frontier), each position reduced to its canonical form under the
   symmetries passed in (with the players' swap, player 1's positions swapped first; as
   two positions kept as one may differ in their player to move, whether the mover
   changes across a ply is then the arc's: SV_TURN); it notes which blocks each block's
   children fall in. When those
   blocks form no cycle, the one-pass solve (sv_one_pass) takes them children first and
   gives each reached position its value from its children's, 2 bytes a position, no
   arcs. When they form cycles and every ply can be taken back (RC_UNDO), the same
   storage serves a retrograde solve whose predecessors are made, not stored (sv_undo,
   "UN-MOVES" below). Otherwise the reached positions get dense ids (a running count per
   512 bits) and the arcs between them, deduplicated per position, in CSR form (32-bit
   ids); retrograde analysis runs level by level from the ends as in the Python solver.
   Every way, values and remoteness are the Python solver's. Large arrays are mapped, from a deleted temporary
   file once the solve holds half the RAM.

   THREADS. Reachability and the arcs are cut into units of bitset words that the threads
   take in turn; what a unit finds does not depend on the schedule. The depth-first
   solve's threads each search from the start and claim positions by compare-and-swap.
   Blocks are numbered in key order once solved.

   Exports (ctypes; declared in rulecraft.h): rc_solve_config_layout, rc_solve_new,
   rc_solve_run, rc_solve_output, rc_solve_lookup, rc_solve_counts, rc_solve_position,
   rc_solve_stats, rc_solve_error, rc_solve_free (and solution_index.c's).
   interpreter/search/native_solve.py writes the configuration, struct rc_solve_config.

   What it takes from the game's code is rulecraft.h's part 3: rc_legal, rc_apply,
   rc_outcome, and the un-move tables when RC_UNDO. The units below are one translation
   unit (cgen expands these #includes in place, in this order; each reads what the units
   before it define), so every function stays static and the rules inline into the loops:

       base.c        constants, the solver's types, errors, memory
       arena.c       out of core: the blocks' large arrays in a file, mapped
       combos.c      combinations: colex ranks and their unranking, by table where it pays
       index.c       blocks, rank and unrank
       symmetry.c    packed keys, canonical forms
       bits.c        the blocks' bitsets, counts and dense ids
       sparse.c      sparse blocks: hash sets, then sorted lists
       tiers.c       out of core: which blocks are held, a tier at a time
       threads.c     phases on the threads, progress
       reach.c       reachability
       arcs.c        the graph of arcs (for retrograde.c)
       one_pass.c    the one-pass solve
       depth_first.c the depth-first solve
       unmoves.c     the un-move solve (RC_UNDO)
       arrangements.c the un-move solve of every arrangement, with no reachability
       retrograde.c  the retrograde solve over arcs
       export.c      the exports */

#include "solver/base.c"
#include "solver/arena.c"
#include "solver/combos.c"
#include "solver/index.c"
#include "solver/symmetry.c"
#include "solver/bits.c"
#include "solver/sparse.c"
#include "solver/tiers.c"
#include "solver/threads.c"
#include "solver/reach.c"
#include "solver/arcs.c"
#include "solver/one_pass.c"
#include "solver/depth_first.c"
#include "solver/unmoves.c"
#include "solver/arrangements.c"
#include "solver/retrograde.c"
#include "solver/export.c"

/*
 * Removal from an augmented red-black tree (sys/tree.h's RB_GENERATE with an RB_AUGMENT that
 * recomputes a node's summary of its subtree from its own and its children's): EEVDF's
 * timeline (min_slice, max_slice, min_vruntime) and BFS's near and far sets (the least
 * rb_seq). tree.h's RB_REMOVE recomputes only the nodes its rotations move; a removal also
 * changes the summary of every node on the path above the place it empties.
 */
#ifndef SCHEDLAB_SCHED_RB_AUGMENT_H
#define SCHEDLAB_SCHED_RB_AUGMENT_H

#include <bsd/sys/tree.h>

/*
 * static void NAME_remove_augmented(struct NAME *head, struct TYPE *elm): RB_REMOVE, then
 * AUGMENT on every node from the lowest one whose subtree lost an entity up to the root. That
 * node is elm's parent, or, when elm has two children, the parent of elm's successor, which
 * takes elm's place (or the successor itself, if elm was that parent); the rotations keep it
 * below every other such node, so the walk up from it recomputes them all.
 */
#define SL_RB_GENERATE_REMOVE_AUGMENTED(NAME, TYPE, FIELD, AUGMENT)                                \
	static void NAME##_remove_augmented(struct NAME *head, struct TYPE *elm)                   \
	{                                                                                          \
		struct TYPE *start = RB_PARENT(elm, FIELD);                                        \
                                                                                                   \
		if (RB_LEFT(elm, FIELD) && RB_RIGHT(elm, FIELD)) {                                 \
			struct TYPE *succ = RB_RIGHT(elm, FIELD);                                  \
                                                                                                   \
			while (RB_LEFT(succ, FIELD))                                               \
				succ = RB_LEFT(succ, FIELD);                                       \
			start = RB_PARENT(succ, FIELD) == elm ? succ : RB_PARENT(succ, FIELD);     \
		}                                                                                  \
		RB_REMOVE(NAME, head, elm);                                                        \
		for (; start; start = RB_PARENT(start, FIELD))                                     \
			AUGMENT(start);                                                            \
	}

#endif

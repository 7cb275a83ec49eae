/* rstat trees: marking, linking and the children-first flush walk (see rstat.h). */
#include "engine/rstat.h"

#include <assert.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>

int rstat_tree_init(struct rstat_tree *t, unsigned nr_cpus)
{
	memset(t, 0, sizeof(*t));
	t->nr_cpus = nr_cpus;
	t->lhead = aligned_alloc(64, sizeof(*t->lhead) * nr_cpus);
	if (!t->lhead)
		return -ENOMEM;
	for (unsigned cpu = 0; cpu < nr_cpus; cpu++)
		atomic_init(&t->lhead[cpu].first, NULL);
	pthread_mutex_init(&t->lock, NULL);
	return 0;
}

void rstat_tree_destroy(struct rstat_tree *t)
{
	if (!t->lhead)
		return;
	pthread_mutex_destroy(&t->lock);
	free(t->lhead);
	t->lhead = NULL;
}

void rstat_tree_add_callback(struct rstat_tree *t, rstat_flush_fn fn, void *arg)
{
	assert(t->nr_callbacks < RSTAT_MAX_CALLBACKS);
	t->callbacks[t->nr_callbacks] = fn;
	t->callback_args[t->nr_callbacks] = arg;
	t->nr_callbacks++;
}

void rstat_node_init(struct rstat_node *n, struct rstat_node *parent, void *owner,
		     struct rstat_node_cpu *cpu, unsigned cpu_stride, unsigned nr_cpus)
{
	n->parent = parent;
	n->flush_next = NULL;
	n->owner = owner;
	n->cpu = cpu;
	n->cpu_stride = cpu_stride;
	for (unsigned c = 0; c < nr_cpus; c++) {
		struct rstat_node_cpu *rc = rstat_node_cpu(n, c);

		rc->updated_children = n;
		rc->updated_next = NULL;
		rc->owner = n;
		atomic_init(&rc->lnext, rc);
	}
}

/* Links n and its not-yet-linked ancestors into cpu's updated tree. */
static void rstat_link(struct rstat_node *n, unsigned cpu)
{
	while (n) {
		struct rstat_node_cpu *rc = rstat_node_cpu(n, cpu);
		struct rstat_node_cpu *prc;

		if (rc->updated_next)
			break;		/* n, hence all its ancestors, already linked */
		if (!n->parent) {
			rc->updated_next = n;
			break;
		}
		prc = rstat_node_cpu(n->parent, cpu);
		rc->updated_next = prc->updated_children;
		prc->updated_children = n;
		n = n->parent;
	}
}

/* Moves every record queued on cpu's llist into cpu's tree, re-arming each
 * record so that the next update queues it again. */
static void rstat_process_llist(struct rstat_tree *t, unsigned cpu)
{
	struct rstat_node_cpu *rc =
		atomic_exchange_explicit(&t->lhead[cpu].first, NULL, memory_order_acquire);

	while (rc) {
		struct rstat_node_cpu *next = atomic_load_explicit(&rc->lnext, memory_order_relaxed);

		atomic_store_explicit(&rc->lnext, rc, memory_order_relaxed);
		rstat_link(rc->owner, cpu);
		rc = next;
	}
	/* Pairs with the barrier in rstat_updated(): either the updater sees
	 * its record re-armed and queues it again, or we see its counters. */
	rstat_smp_mb();
}

/* Pushes the subtree whose first child is `child` onto `head`, level by
 * level (css_rstat_push_children()).  Within one level every sibling chain
 * is pushed in turn; a node's children are queued for the next level, which
 * ends up in front of this one, so descendants always precede ancestors. */
static struct rstat_node *rstat_push_children(struct rstat_node *head, struct rstat_node *child,
					      unsigned cpu)
{
	struct rstat_node *level = child;	/* first children of this level */
	struct rstat_node *next_level = NULL;

	child->flush_next = NULL;
	while (level) {
		while (level) {
			struct rstat_node *pos = level;
			struct rstat_node *parent = pos->parent;

			level = pos->flush_next;
			/* Sibling chains end at the parent. */
			while (pos != parent) {
				struct rstat_node_cpu *rc = rstat_node_cpu(pos, cpu);
				struct rstat_node *grandchild = rc->updated_children;
				struct rstat_node *sibling = rc->updated_next;

				pos->flush_next = head;
				head = pos;
				if (grandchild != pos) {
					rc->updated_children = pos;
					grandchild->flush_next = next_level;
					next_level = grandchild;
				}
				rc->updated_next = NULL;
				pos = sibling;
			}
		}
		level = next_level;
		next_level = NULL;
	}
	return head;
}

/* Detaches n's updated subtree on cpu and returns it as a flush list,
 * children first, n last; NULL if n has nothing on this cpu. */
static struct rstat_node *rstat_updated_list(struct rstat_node *n, unsigned cpu)
{
	struct rstat_node_cpu *rc = rstat_node_cpu(n, cpu);
	struct rstat_node *head = n;
	struct rstat_node *child;

	if (!rc->updated_next)
		return NULL;
	if (n->parent) {
		struct rstat_node **nextp = &rstat_node_cpu(n->parent, cpu)->updated_children;

		while (*nextp != n) {
			assert(*nextp != n->parent);
			nextp = &rstat_node_cpu(*nextp, cpu)->updated_next;
		}
		*nextp = rc->updated_next;
	}
	rc->updated_next = NULL;

	n->flush_next = NULL;
	child = rc->updated_children;
	rc->updated_children = n;
	if (child != n)
		head = rstat_push_children(head, child, cpu);
	return head;
}

unsigned long rstat_flush(struct rstat_tree *t, struct rstat_node *n)
{
	unsigned long visited = 0;

	for (unsigned cpu = 0; cpu < t->nr_cpus; cpu++) {
		struct rstat_node *pos;

		pthread_mutex_lock(&t->lock);
		rstat_process_llist(t, cpu);
		for (pos = rstat_updated_list(n, cpu); pos; pos = pos->flush_next) {
			for (unsigned i = 0; i < t->nr_callbacks; i++)
				t->callbacks[i](pos->owner, cpu, t->callback_args[i]);
			visited++;
		}
		pthread_mutex_unlock(&t->lock);
	}
	return visited;
}

bool rstat_node_busy(struct rstat_tree *t, struct rstat_node *n)
{
	bool busy = false;

	pthread_mutex_lock(&t->lock);
	for (unsigned cpu = 0; cpu < t->nr_cpus && !busy; cpu++) {
		struct rstat_node_cpu *rc = rstat_node_cpu(n, cpu);

		busy = rc->updated_next || rc->updated_children != n ||
		       atomic_load_explicit(&rc->lnext, memory_order_relaxed) != rc;
	}
	pthread_mutex_unlock(&t->lock);
	return busy;
}

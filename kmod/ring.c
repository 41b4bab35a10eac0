// SPDX-License-Identifier: GPL-2.0
/*
 * Ring memory: a control page and data pages, allocated on the ring CPU's
 * node. The kernel maps the data twice back to back with vmap() so no
 * record ever wraps for the writer; the reader may do the same with one
 * mmap() of twice the data size. Pages are inserted into user mappings one
 * by one; each mapping holds its own page references, so freeing the ring
 * while a reader still has it mapped is safe.
 */
#include <linux/mm.h>
#include <linux/slab.h>
#include <linux/topology.h>
#include <linux/vmalloc.h>

#include "compat.h"
#include "ring.h"

#define SKD_RING_GFP	(GFP_KERNEL | __GFP_ZERO | __GFP_ACCOUNT)

static void ring_wakeup(struct irq_work *work)
{
	struct skd_ring *ring = container_of(work, struct skd_ring, wakeup);

	wake_up_all(ring->wq);
}

static void free_pages_array(struct page **pages, unsigned int n)
{
	while (n--)
		__free_page(pages[n]);
}

struct skd_ring *skd_ring_alloc(unsigned int cpu, unsigned int nr_pages,
				u32 wakeup_bytes, wait_queue_head_t *wq)
{
	int node = cpu_to_node(cpu);
	struct page **twice;
	struct skd_ring *ring;
	unsigned int i;

	ring = kzalloc_node(sizeof(*ring), GFP_KERNEL, node);
	if (!ring)
		return NULL;

	ring->ctrl_page = alloc_pages_node(node, SKD_RING_GFP, 0);
	if (!ring->ctrl_page)
		goto err_free_ring;

	/* 8 bytes a page: a 4096-page ring wants 32 KiB, not contiguous. */
	ring->pages = kvzalloc_node(array_size(nr_pages, sizeof(*ring->pages)),
				    GFP_KERNEL, node);
	if (!ring->pages)
		goto err_free_ctrl;

	for (i = 0; i < nr_pages; i++) {
		ring->pages[i] = alloc_pages_node(node, SKD_RING_GFP, 0);
		if (!ring->pages[i])
			goto err_free_pages;
	}
	ring->nr_pages = nr_pages;

	twice = kvmalloc_array(2 * nr_pages, sizeof(*twice), GFP_KERNEL);
	if (!twice)
		goto err_free_pages;
	for (i = 0; i < nr_pages; i++) {
		twice[i] = ring->pages[i];
		twice[i + nr_pages] = ring->pages[i];
	}
	ring->data = vmap(twice, 2 * nr_pages, VM_MAP, PAGE_KERNEL);
	kvfree(twice);
	if (!ring->data)
		goto err_free_pages;

	ring->wq = wq;
	init_irq_work(&ring->wakeup, ring_wakeup);
	skd_ring_core_init(&ring->core, page_address(ring->ctrl_page),
			   ring->data, (u64)nr_pages << PAGE_SHIFT,
			   wakeup_bytes, cpu);
	return ring;

err_free_pages:
	free_pages_array(ring->pages, i);
	kvfree(ring->pages);
err_free_ctrl:
	__free_page(ring->ctrl_page);
err_free_ring:
	kfree(ring);
	return NULL;
}

void skd_ring_free(struct skd_ring *ring)
{
	if (!ring)
		return;
	/* A wakeup queued by the last record may still be pending. */
	irq_work_sync(&ring->wakeup);
	vunmap(ring->data);
	free_pages_array(ring->pages, ring->nr_pages);
	kvfree(ring->pages);
	__free_page(ring->ctrl_page);
	kfree(ring);
}

static int insert_pages(struct vm_area_struct *vma, struct page **pages,
			unsigned int nr, unsigned int count)
{
	unsigned long addr = vma->vm_start;
	unsigned int i;
	int ret;

	for (i = 0; i < count; i++, addr += PAGE_SIZE) {
		ret = vm_insert_page(vma, addr, pages[i % nr]);
		if (ret)
			return ret;
	}
	return 0;
}

int skd_ring_mmap(struct skd_ring *ring, unsigned int region,
		  struct vm_area_struct *vma)
{
	unsigned long pages = vma_pages(vma);

	/*
	 * MAP_SHARED, not MAP_PRIVATE. VM_MAYSHARE says which: the core
	 * drops VM_SHARED from a shared mapping of an fd opened read-only,
	 * which may still map the rings to read them.
	 */
	if (!(vma->vm_flags & VM_MAYSHARE))
		return -EINVAL;

	switch (region) {
	case SKD_MMAP_CONTROL:
		if (pages != 1)
			return -EINVAL;
		skd_vm_flags_set(vma, VM_DONTCOPY | VM_DONTEXPAND | VM_DONTDUMP);
		return insert_pages(vma, &ring->ctrl_page, 1, 1);
	case SKD_MMAP_DATA:
		if (pages != ring->nr_pages && pages != 2UL * ring->nr_pages)
			return -EINVAL;
		/* Records are the kernel's to write; readers only look. */
		if (vma->vm_flags & VM_WRITE)
			return -EPERM;
		skd_vm_flags_clear(vma, VM_MAYWRITE);
		skd_vm_flags_set(vma, VM_DONTCOPY | VM_DONTEXPAND | VM_DONTDUMP);
		return insert_pages(vma, ring->pages, ring->nr_pages, pages);
	default:
		return -EINVAL;
	}
}

bool skd_ring_readable(struct skd_ring *ring, bool stopped)
{
	u64 unread = skd_ring_unread(&ring->core);

	return unread >= ring->core.watermark || (stopped && unread);
}

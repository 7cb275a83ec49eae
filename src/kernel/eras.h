/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The era descriptors, one per src/kernel/era-*.c; private to src/kernel. */
#ifndef MEMCGFS_KERNEL_ERAS_H
#define MEMCGFS_KERNEL_ERAS_H

#include "kernel/kernel.h"

extern const struct mcg_kernel mcg_era_5_10;
extern const struct mcg_kernel mcg_era_6_1;
extern const struct mcg_kernel mcg_era_6_12;
extern const struct mcg_kernel mcg_era_7_3;

#endif

/* Launch order of blocks in groups of block rows (rungs 12 and 14).  Blocks that
 * run at the same time then share the panels of A and B they read: numbered
 * down a group of G block rows, column by column, a wave of a few hundred
 * blocks covers G rows by a few dozen columns of C instead of a few rows by
 * every column, and reads correspondingly less of B from DRAM. */
#ifndef KERNELS_GPU_BLOCK_ORDER_CUH
#define KERNELS_GPU_BLOCK_ORDER_CUH

constexpr int GROUP_ROWS = 2048;   /* rows of C per group of blocks in launch order */

/* Block `id` of an nx x ny grid, counted in launch order: its column and row. */
__device__ __forceinline__ void grouped_block(int id, int nx, int ny, int G, int &x, int &y)
{
    const int first = id / (G * nx) * G, rows = min(ny - first, G), in = id % (G * nx);
    y = first + in % rows;
    x = in / rows;
}

#endif

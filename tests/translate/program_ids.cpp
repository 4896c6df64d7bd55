// program_id and num_programs on the three grid axes.
#include <tilec/tl.h>

TILEC_KERNEL void grid_info(int* out) {
  int x = tl::program_id(0);
  int y = tl::program_id(1);
  int z = tl::program_id(2);
  int nx = tl::num_programs(0);
  int ny = tl::num_programs(1);
  int nz = tl::num_programs(2);
  int linear = (z * ny + y) * nx + x;
  tl::store(out + linear, nx * ny * nz);
}

// IR:       %1:x = program_id axis=0 : int
// IR-NEXT:  %2:y = program_id axis=1 : int
// IR-NEXT:  %3:z = program_id axis=2 : int
// IR-NEXT:  %4:nx = num_programs axis=0 : int
// IR-NEXT:  %5:ny = num_programs axis=1 : int
// IR-NEXT:  %6:nz = num_programs axis=2 : int

// CU:       const int x = int(blockIdx.x);
// CU:       const int y = int(blockIdx.y);
// CU:       const int z = int(blockIdx.z);
// CU:       const int nx = int(gridDim.x);
// CU:       const int ny = int(gridDim.y);
// CU:       const int nz = int(gridDim.z);
// CU:       const int linear = ((((z * ny) + y) * nx) + x);
// CU:       if (tid == 0) *(out + linear) = ((nx * ny) * nz);

// GPU solver backend: every solver vector lives on the device, in complex
// double in either precision; vector updates are elementwise kernels,
// reductions go through CUB (cub::DeviceReduce with a transform iterator) in
// double, and only their few scalars travel to the host. The product runs
// with double cuFFT transforms, or in single (mixed) precision with float
// transforms that borrow the double product's work arrays; the double
// product stays available as matvec_exact().
#include <thrust/iterator/counting_iterator.h>
#include <thrust/iterator/transform_iterator.h>

#include <cub/cub.cuh>

#include <memory>

#include "dda/matvec_cuda.cuh"
#include "nanoscatter/error.hpp"

namespace nanoscatter::dda {

namespace {

struct Sum3 {
  double a, b, c;
};
struct Sum3Op {
  __host__ __device__ Sum3 operator()(const Sum3& x, const Sum3& y) const { return {x.a + y.a, x.b + y.b, x.c + y.c}; }
};

// Per-element terms of the reductions (in double).
template <class C>
struct DotTerm {
  const C* x;
  const C* y;
  int mode;  // 0: x·y (bilinear), 1: conj(x)·y, 2: |x|², 3: x·x and |x|²
  __host__ __device__ Sum3 operator()(long long i) const {
    const double xr = x[i].x, xi = x[i].y;
    switch (mode) {
      case 0: {
        const double yr = y[i].x, yi = y[i].y;
        return {xr * yr - xi * yi, xr * yi + xi * yr, 0};
      }
      case 1: {
        const double yr = y[i].x, yi = y[i].y;
        return {xr * yr + xi * yi, xr * yi - xi * yr, 0};
      }
      case 2: return {xr * xr + xi * xi, 0, 0};
      default: return {xr * xr - xi * xi, 2 * xr * xi, xr * xr + xi * xi};
    }
  }
};

template <class C, class R>
__global__ void lincomb_kernel(C* d, C a, const C* x, C b, const C* y, C c, const C* z, std::size_t n) {
  const std::size_t i = blockIdx.x * static_cast<std::size_t>(blockDim.x) + threadIdx.x;
  if (i >= n) return;
  const C vx = x[i], vy = y[i];
  R re = a.x * vx.x - a.y * vx.y + b.x * vy.x - b.y * vy.y;
  R im = a.x * vx.y + a.y * vx.x + b.x * vy.y + b.y * vy.x;
  if (z) {
    const C vz = z[i];
    re += c.x * vz.x - c.y * vz.y;
    im += c.x * vz.y + c.y * vz.x;
  }
  d[i] = C{re, im};
}

class CudaBackend final : public SolverBackend {
 public:
  using C = cufftDoubleComplex;
  using Real = double;
  CudaBackend(const MatrixSpec& spec, Precision precision) : exact_(spec), n_(3 * spec.position.size()) {
    if (precision == Precision::float32) {
      const auto sh = exact_.shared();
      CudaMatvec<float>::Shared borrow;
      borrow.a = sh.a;
      borrow.b = sh.b;
      borrow.work = sh.work;
      borrow.a_bytes = sh.a_bytes;
      borrow.b_bytes = sh.b_bytes;
      borrow.work_bytes = sh.work_bytes;
      borrow.dt = sh.dt;
      fast_ = std::make_unique<CudaMatvec<float>>(spec, &borrow);
    }
    result_ = DeviceBuffer<Sum3>(1);
    std::size_t bytes = 0;
    DotTerm<C> term{nullptr, nullptr, 0};
    auto it = thrust::make_transform_iterator(thrust::counting_iterator<long long>(0), term);
    NS_CUDA_CHECK(cub::DeviceReduce::Reduce(nullptr, bytes, it, result_.data(), static_cast<int>(n_), Sum3Op{},
                                            Sum3{0, 0, 0}));
    temp_ = DeviceBuffer<char>(std::max<std::size_t>(bytes, 1));
  }
  std::size_t length() const override { return n_; }
  int create() override {
    int v;
    if (!free_.empty()) {
      v = free_.back();
      free_.pop_back();
      vecs_[v] = std::make_unique<DeviceBuffer<C>>(n_);
    } else {
      vecs_.push_back(std::make_unique<DeviceBuffer<C>>(n_));
      v = static_cast<int>(vecs_.size()) - 1;
    }
    vecs_[v]->zero();
    return v;
  }
  void release(int v) override {
    vecs_.at(static_cast<std::size_t>(v)).reset();
    free_.push_back(v);
  }
  void upload(int v, const std::vector<cplx>& h) override {
    if (h.size() != n_) fail("CudaBackend::upload: size mismatch");
    std::vector<C> t(n_);
    for (std::size_t i = 0; i < n_; ++i) t[i] = C{static_cast<Real>(h[i].real()), static_cast<Real>(h[i].imag())};
    vec(v)->upload(t);
  }
  std::vector<cplx> download(int v) override {
    const std::vector<C> t = vec(v)->download();
    std::vector<cplx> h(n_);
    for (std::size_t i = 0; i < n_; ++i) h[i] = cplx(t[i].x, t[i].y);
    return h;
  }
  void copy(int dst, int src) override {
    NS_CUDA_CHECK(cudaMemcpyAsync(vec(dst)->data(), vec(src)->data(), n_ * sizeof(C), cudaMemcpyDeviceToDevice));
  }
  void set_zero(int v) override { NS_CUDA_CHECK(cudaMemsetAsync(vec(v)->data(), 0, n_ * sizeof(C))); }
  void matvec(int in, int out, bool hermitian, double* norm2_out) override {
    if (fast_)
      fast_->apply(vec(in)->data(), vec(out)->data(), hermitian);
    else
      exact_.apply(vec(in)->data(), vec(out)->data(), hermitian);
    ++matvecs_;
    if (norm2_out) *norm2_out = norm2(out);
  }
  void matvec_exact(int in, int out, bool hermitian, double* norm2_out) override {
    exact_.apply(vec(in)->data(), vec(out)->data(), hermitian);
    ++matvecs_;
    ++exact_matvecs_;
    if (norm2_out) *norm2_out = norm2(out);
  }
  bool matvec_is_approximate() const override { return fast_ != nullptr; }
  void use_exact_products() override { fast_.reset(); }  // its work arrays are borrowed: nothing else to free
  void lincomb(int dst, cplx a, int x, cplx b, int y, cplx c, int z, double* norm2_out) override {
    auto cv = [](cplx v) { return C{static_cast<Real>(v.real()), static_cast<Real>(v.imag())}; };
    lincomb_kernel<C, Real><<<blocks(), kThreads>>>(vec(dst)->data(), cv(a), vec(x)->data(), cv(b), vec(y)->data(),
                                                    cv(c), z >= 0 ? vec(z)->data() : nullptr, n_);
    NS_CUDA_CHECK_LAUNCH();
    if (norm2_out) *norm2_out = norm2(dst);
  }
  cplx dot_u(int x, int y) override {
    const Sum3 s = reduce(x, y, 0);
    return {s.a, s.b};
  }
  cplx dot_c(int x, int y) override {
    const Sum3 s = reduce(x, y, 1);
    return {s.a, s.b};
  }
  double norm2(int x) override { return reduce(x, x, 2).a; }
  void dot_u_self_and_norm2(int x, cplx* dot, double* norm2_out) override {
    const Sum3 s = reduce(x, x, 3);
    *dot = {s.a, s.b};
    *norm2_out = s.c;
  }
  int matvec_count() const override { return matvecs_; }
  int exact_matvec_count() const override { return exact_matvecs_; }

 private:
  static constexpr int kThreads = 256;
  unsigned blocks() const { return static_cast<unsigned>((n_ + kThreads - 1) / kThreads); }
  DeviceBuffer<C>* vec(int v) { return vecs_.at(static_cast<std::size_t>(v)).get(); }
  Sum3 reduce(int x, int y, int mode) {
    DotTerm<C> term{vec(x)->data(), vec(y)->data(), mode};
    auto it = thrust::make_transform_iterator(thrust::counting_iterator<long long>(0), term);
    std::size_t bytes = temp_.size();
    NS_CUDA_CHECK(cub::DeviceReduce::Reduce(temp_.data(), bytes, it, result_.data(), static_cast<int>(n_), Sum3Op{},
                                            Sum3{0, 0, 0}));
    Sum3 h;
    NS_CUDA_CHECK(cudaMemcpy(&h, result_.data(), sizeof(Sum3), cudaMemcpyDeviceToHost));
    return h;
  }

  CudaMatvec<double> exact_;
  std::unique_ptr<CudaMatvec<float>> fast_;  // single (mixed) precision: float transforms
  std::size_t n_;
  std::vector<std::unique_ptr<DeviceBuffer<C>>> vecs_;
  std::vector<int> free_;
  DeviceBuffer<Sum3> result_;
  DeviceBuffer<char> temp_;
  int matvecs_ = 0, exact_matvecs_ = 0;
};

}  // namespace

std::unique_ptr<SolverBackend> make_cuda_backend(const MatrixSpec& spec, Precision precision) {
  if (3 * spec.position.size() > static_cast<std::size_t>(INT32_MAX))
    fail("DDA CUDA: more than 2^31 vector entries are not supported");
  // The current device: each MPI rank has made its own GPU current (docs/mpi.md).
  // Refuse before allocating when the estimate exceeds the budget (the
  // user's cap, else half of the free memory, as every engine).
  const std::size_t need = cuda_memory_bytes(spec.box, spec.grid, spec.position.size(), spec.solver_vectors, precision);
  const std::size_t avail = device_memory_budget(spec.max_device_bytes);
  if (need > avail)
    fail_option("device", "the DDA problem needs about ", need / 1048576, " MiB of GPU memory, ", avail / 1048576,
            " MiB are available (try --precision single, a smaller --grid or --device cpu)");
  return std::make_unique<CudaBackend>(spec, precision);
}

std::size_t cuda_memory_bytes(const std::array<int, 3>& box, const std::array<int, 3>& grid,
                              std::size_t solver_dipoles, int vectors, Precision precision) {
  // Double FFT work arrays and vectors in either precision; single adds the
  // float interaction FFT (its transforms borrow the double work arrays) and
  // a second copy of the positions and S.
  const bool single = precision == Precision::float32;
  const std::size_t c = 16;
  const std::size_t gx = grid[0], gy = grid[1], gz = grid[2], by = box[1], bz = box[2];
  const std::size_t xsize = 3 * bz * by * gx, ysize = 3 * gx * bz * gy, zsize = 3 * gx * gy * gz;
  const std::size_t dt = gx * (gy / 2 + 1) * (gz / 2 + 1) * 6;
  // cuFFT's work area is at most one transform's data (batched 1D plans)
  const std::size_t fft = (std::max(xsize, zsize) + ysize + zsize) * c;
  const std::size_t per_dipole = (6 + 16) * (single ? 2 : 1);
  return fft + dt * (single ? 16 + 8 : 16) + solver_dipoles * per_dipole +
         static_cast<std::size_t>(vectors) * 3 * solver_dipoles * c;
}

}  // namespace nanoscatter::dda

// TILEC_AUTOTUNE: the declaration next to the kernel and the autotuned launcher it becomes.
#include <tilec/tl.h>

template <class T, int BLOCK, bool EVEN>
TILEC_KERNEL void scale(const T *x, T *out, float *partial, int n, float s) {
  auto offs = tl::program_id(0) * BLOCK + tl::arange<0, BLOCK>();
  auto mask = offs < n;
  auto v = tl::cast<float>(tl::load(x + offs, mask)) * s;
  tl::store(out + offs, tl::cast<T>(v), mask);
  tl::store(partial + tl::program_id(0), tl::sum(v));
}

// A named function as a hook: copied into the header once, called by its name.
inline bool divides(int n, int BLOCK) { return n % BLOCK == 0; }

TILEC_AUTOTUNE(scale) = {
    .configs = {{.values = {{"BLOCK", 256}}, .num_warps = 2},
                {.values = {{"BLOCK", 1024}}, .num_warps = 4, .num_stages = 1}},
    .key = {"n", "s"},
    .prune = [](int BLOCK, int n, int num_warps) { return BLOCK <= 4 * n || num_warps == 2; },
    .reset_to_zero = {{"out", [](int n) { return n; }}},
    .restore_value = {{"partial", [](int n) { return tilec::cdiv(n, 256); }}},
    .heuristics = {{"EVEN", divides}},
    .warmup_ms = 5,
    .rep_ms = 20,
};

// Heuristics only (Triton's @triton.heuristics): no configs to time.
template <int BLOCK>
TILEC_KERNEL void row_max(const float *in, float *out, int n_cols) {
  auto cols = tl::arange<0, BLOCK>();
  auto x = tl::load(in + tl::program_id(0) * n_cols + cols, cols < n_cols, -INFINITY);
  tl::store(out + tl::program_id(0), tl::max(x));
}

TILEC_AUTOTUNE(row_max) = {
    .heuristics = {{"BLOCK", [](int n_cols) { return tilec::next_power_of_2(n_cols); }},
                   {"num_warps", [](int BLOCK) { return BLOCK >= 2048 ? 8 : 4; }}},
};

// Tensor maps whose boxes are a config's blocks: each config encodes its own, and the
// specialization it runs knows whether every map was encoded (all_maps_encoded).
template <int BM, int BN, int BK>
TILEC_KERNEL void desc_tuned(const tl::half *a, const tl::half *b, float *c, int M, int N, int K) {
  int m0 = tl::program_id(0) * BM;
  int n0 = tl::program_id(1) * BN;
  auto a_desc = tl::make_tensor_descriptor<BM, BK>(a, {M, K}, {K, 1});
  auto b_desc = tl::make_tensor_descriptor<BK, BN>(b, {K, N}, {N, 1});
  auto acc = tl::zeros<float, BM, BN>();
  for (int k = 0; k < K; k += BK)
    acc = tl::dot(a_desc.load({m0, k}), b_desc.load({k, n0}), acc);
  auto c_desc = tl::make_tensor_descriptor<BM, BN>(c, {M, N}, {N, 1});
  c_desc.store({m0, n0}, acc);
}

TILEC_AUTOTUNE(desc_tuned) = {
    .configs = {{.values = {{"BM", 128}, {"BN", 128}, {"BK", 64}}, .num_warps = 8},
                {.values = {{"BM", 64}, {"BN", 128}, {"BK", 64}}, .num_warps = 4}},
    .key = {"M", "N", "K"},
};

// The plain launchers stay as they are.
// H-LABEL:  /// Launches scale over
// H-NEXT:   template <class T, int BLOCK, bool EVEN>
// H-NEXT:   inline void scale(tilec::Grid grid,

// The declaration's data and hooks, in the header's namespace.
// H-LABEL:  // Autotuned launchers, from the TILEC_AUTOTUNE declarations of autotune.cpp.
// H-NEXT:   #include <tilec/autotune.h>
// H:        namespace tilec_generated::autotune {
// H:        inline tilec::TuningSpec scale_tuning() {
// H-NEXT:     tilec::TuningSpec spec;
// H-NEXT:     spec.kernel = "scale";
// H-NEXT:     spec.configs = {
// H-NEXT:         tilec::Config({{[{]}}{"BLOCK", 256}}, /*num_warps=*/2, /*num_stages=*/3),
// H-NEXT:         tilec::Config({{[{]}}{"BLOCK", 1024}}, /*num_warps=*/4, /*num_stages=*/1),
// H-NEXT:     };
// The tuning key: template values of the call (T), DIV16, the key (n, and s by its bits).
// H-NEXT:     spec.key_names = {"T", "DIV16", "n", "s"};
// H-NEXT:     spec.key_kinds = "tmif";
// H-NEXT:     spec.warmup_ms = 5;
// H-NEXT:     spec.rep_ms = 20;
// H-NEXT:     return spec;
// H-NEXT:   }
// A named function is copied as it is written (made inline); lambdas get a name.
// H-NEXT:   // The hooks of scale's declaration, copied from its source.
// H-NEXT:   inline bool divides(int n, int BLOCK) { return n % BLOCK == 0; }
// H-NEXT:   inline const auto scale_prune = [](int BLOCK, int n, int num_warps) { return BLOCK <= 4 * n || num_warps == 2; };
// H-NEXT:   inline const auto scale_reset_out = [](int n) { return n; };
// H-NEXT:   inline const auto scale_restore_partial = [](int n) { return tilec::cdiv(n, 256); };
// H:        inline tilec::TuningSpec row_max_tuning() {
// H-NEXT:     tilec::TuningSpec spec;
// H-NEXT:     spec.kernel = "row_max";
// H-NEXT:     // No configs: the autotuner runs one with the default num_warps and num_stages.
// H-NEXT:     spec.key_names = {"DIV16"};
// H:        inline const auto row_max_heuristic_BLOCK = [](int n_cols) { return tilec::next_power_of_2(n_cols); };
// H-NEXT:   inline const auto row_max_heuristic_num_warps = [](int BLOCK) { return BLOCK >= 2048 ? 8 : 4; };
// H:        } // namespace tilec_generated::autotune

// The autotuned launcher keeps the template parameters that no config or heuristic sets.
// H-LABEL:  /// Launches scale with the config that its TILEC_AUTOTUNE declaration chooses: the first call
// H-NEXT:   /// for each specialization and value of the key (n, s) times the configs and keeps the
// H:        template <class T>
// H-NEXT:   inline void scale_autotuned(tilec::GridFn grid, tilec::Stream stream, const T* x, T* out, float* partial, int n, float s) {
// H-NEXT:     static tilec::Kernel kernel(tilec_generated::autotune::source, "scale", "tib");
// H-NEXT:     static tilec::Autotuner tuner(tilec_generated::autotune::source, tilec_generated::autotune::scale_tuning());
// H-NEXT:     const uint64_t div16 = tilec::div16_mask(x, out, partial, n, s);
// H-NEXT:     // A choice is kept per specialization and value of the key.
// H-NEXT:     tilec::SpecKey tuning_key;
// H-NEXT:     tuning_key.push(tilec::type_id<T>());
// H-NEXT:     tuning_key.push(div16);
// H-NEXT:     tuning_key.push(tilec::key_value(n));
// H-NEXT:     tuning_key.push(tilec::key_value(s));
// Hook parameters are bound by name: arguments, config values, num_warps.
// H-NEXT:     // A config with the values of the heuristics added.
// H-NEXT:     auto complete = [&](tilec::Config config) {
// H-NEXT:       config.set("EVEN", int64_t(bool(tilec_generated::autotune::divides(n, config.get("BLOCK")))));
// H-NEXT:       return config;
// H-NEXT:     };
// H-NEXT:     // The specialization that runs a completed config.
// H-NEXT:     auto spec_key = [&](const tilec::Config &config) {
// H-NEXT:       tilec::SpecKey key;
// H-NEXT:       key.push(tilec::type_id<T>());
// H-NEXT:       key.push(config.get("BLOCK"));
// H-NEXT:       key.push(config.get("EVEN"));
// H-NEXT:       key.push(config.num_warps);
// H-NEXT:       key.push(config.num_stages);
// H-NEXT:       key.push(div16);
// H-NEXT:       return key;
// H-NEXT:     };
// H-NEXT:     auto launch = [&](const tilec::Config &config) {
// H-NEXT:       void* params[] = {(void*)&x, (void*)&out, (void*)&partial, (void*)&n, (void*)&s};
// H-NEXT:       kernel.launch(spec_key(config), grid(config), config.num_warps * 32, /*shared_bytes=*/0, stream, params);
// H-NEXT:     };
// H-NEXT:     const tilec::Config *chosen = tuner.find(tuning_key);
// H-NEXT:     if (!chosen) {
// H-NEXT:       tilec::Tuning tuning;
// H-NEXT:       tuning.stream = stream;
// H-NEXT:       tuning.complete = complete;
// H-NEXT:       tuning.compile = [&](const tilec::Config &config) { kernel.function(spec_key(config)); };
// H-NEXT:       tuning.launch = launch;
// H-NEXT:       tuning.keep = [&](const tilec::Config &config) { return bool(tilec_generated::autotune::scale_prune(config.get("BLOCK"), n, config.num_warps)); };
// H-NEXT:       tuning.buffers.push_back({out, size_t(tilec_generated::autotune::scale_reset_out(n)) * sizeof(T), /*zero=*/true});
// H-NEXT:       tuning.buffers.push_back({partial, size_t(tilec_generated::autotune::scale_restore_partial(n)) * 4, /*zero=*/false});
// H-NEXT:       chosen = &tuner.tune(tuning_key, tuning);
// H-NEXT:     }
// H-NEXT:     launch(complete(*chosen));
// H-NEXT:   }

// Heuristics only: a plain function; num_warps comes from a heuristic too.
// H-LABEL:  /// Launches row_max with the template values and options that the heuristics of its
// H:        inline void row_max_autotuned(tilec::GridFn grid, tilec::Stream stream, const float* in, float* out, int n_cols) {
// H:          auto complete = [&](tilec::Config config) {
// H-NEXT:       config.set("BLOCK", int64_t(tilec_generated::autotune::row_max_heuristic_BLOCK(n_cols)));
// H-NEXT:       config.num_warps = int(tilec_generated::autotune::row_max_heuristic_num_warps(config.get("BLOCK")));
// H-NEXT:       return config;
// H-NOT:      tuning.keep
// H:          launch(complete(*chosen));

// H-LABEL:  inline void desc_tuned_autotuned(
// H:          // The tensor maps of a config, into tma_maps; bit i of the result says map i is encoded.
// H-NEXT:     auto encode_maps = [&](const tilec::Config &config, tilec::TmaMap *tma_maps) {
// H-NEXT:       const int64_t BM = config.get("BM");
// H-NEXT:       const int64_t BN = config.get("BN");
// H-NEXT:       const int64_t BK = config.get("BK");
// H:            if (tilec::encode_tma_map(tma_maps[0], a, int(sizeof(*a)), M, K, K, BM, BK))
// H:            return tma_maps_live;
// H-NEXT:     };
// H-NEXT:     // The specialization that runs a completed config with the maps of `tma_maps_live`.
// H-NEXT:     auto spec_key = [&](const tilec::Config &config, unsigned tma_maps_live) {
// H:            key.push(div16
// H-NEXT:         | tilec::maps_fact(tma_maps_live, (3u | 1u << 31), 61));
// H:          auto launch = [&](const tilec::Config &config) {
// H-NEXT:       tilec::TmaMap tma_maps[2];
// H-NEXT:       const unsigned tma_maps_live = encode_maps(config, tma_maps);
// H:            kernel.launch(spec_key(config, tma_maps_live), grid(config),
// H:          tuning.compile = [&](const tilec::Config &config) { tilec::TmaMap tma_maps[2]; kernel.function(spec_key(config, encode_maps(config, tma_maps))); };

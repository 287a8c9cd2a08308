// The Python module vmafpp._vmafpp (python/vmafpp/__init__.py re-exports it):
// score() on file paths or numpy frames, and a streaming Scorer, both over the
// library's score() / Scorer, so the values are the CLI's bits. Arrays are
// read in place, never copied (but for a layout whose rows are not
// contiguous): the library's Scorer::view_from checks each plane's shape and
// stride and reads the array while the frame is scored. The GIL is released while frames are scored; vmafpp::Error becomes vmafpp.Error with
// the same one-line message.
#include <pybind11/numpy.h>
#include <pybind11/pybind11.h>
#include <pybind11/stl.h>

#include <algorithm>
#include <climits>
#include <cmath>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <vector>

#include "vmafpp/scorer.hpp"
#include "vmafpp/vmafpp.hpp"

namespace py = pybind11;

namespace {

using vmafpp::Error;
using vmafpp::PixelFormat;

// model=: None (no prediction), one model or a list of models. A model is a
// builtin version ("vmaf_v0.6.1"), a .json path, or the CLI's -m string
// ("version=vmaf_v0.6.1:name=foo").
void set_models(vmafpp::ScoreConfig& cfg, const py::object& model) {
    if (model.is_none()) {
        cfg.no_prediction = true;
        return;
    }
    std::vector<std::string> specs;
    if (py::isinstance<py::str>(model))
        specs.push_back(model.cast<std::string>());
    else
        specs = model.cast<std::vector<std::string>>();
    for (const auto& s : specs) {
        if (s.find('=') != std::string::npos) {
            cfg.models.push_back(vmafpp::parse_model_config(s));
            continue;
        }
        vmafpp::ModelConfig mc;
        if (s.size() > 5 && s.compare(s.size() - 5, 5, ".json") == 0)
            mc.path = s;
        else
            mc.version = s;
        cfg.models.push_back(mc);
    }
    cfg.no_prediction = cfg.models.empty();
}

vmafpp::ScoreConfig make_config(const py::object& model, const std::vector<std::string>& features,
                                unsigned threads, unsigned subsample) {
    vmafpp::ScoreConfig cfg;
    set_models(cfg, model);
    cfg.features = features;
    cfg.threads = threads;
    cfg.subsample = subsample;
    return cfg;
}

py::object number(const std::optional<double>& v) {
    if (!v || !std::isfinite(*v)) return py::none();  // the JSON writer's null
    return py::float_(*v);
}

// The JSON output as a dict: frames with frameNum and metrics (scored frames
// only), pooled_metrics with min/max/mean/harmonic_mean, full doubles.
py::dict to_dict(const vmafpp::ScoreRun& run) {
    const vmafpp::Results r = run.results();
    py::dict out;
    out["version"] = r.version;
    out["fps"] = r.fps;
    py::list frames;
    for (unsigned i = 0; i < r.frame_count; ++i) {
        py::dict metrics;
        for (const auto& m : r.metrics)
            if (i < m.values.size() && m.values[i]) metrics[py::str(m.key)] = number(m.values[i]);
        if (py::len(metrics) == 0) continue;
        py::dict frame;
        frame["frameNum"] = i;
        frame["metrics"] = metrics;
        frames.append(frame);
    }
    out["frames"] = frames;
    py::dict pooled;
    for (const auto& m : r.metrics) {
        py::dict p;
        if (const auto v = r.pooled(m)) {
            p["min"] = number(v->min);
            p["max"] = number(v->max);
            p["mean"] = number(v->mean);
            p["harmonic_mean"] = number(v->harmonic_mean);
        }
        pooled[py::str(m.key)] = p;
    }
    out["pooled_metrics"] = pooled;
    py::dict aggregate;
    for (const auto& [k, v] : r.aggregate) aggregate[py::str(k)] = number(v);
    out["aggregate_metrics"] = aggregate;
    return out;
}

PixelFormat parse_format(const std::string& s) {
    if (s == "420" || s == "yuv420p") return PixelFormat::yuv420;
    if (s == "422" || s == "yuv422p") return PixelFormat::yuv422;
    if (s == "444" || s == "yuv444p") return PixelFormat::yuv444;
    if (s == "400" || s == "gray" || s == "yuv400p") return PixelFormat::yuv400;
    throw Error("unknown pixel format \"" + s + "\" (420, 422, 444 or 400)");
}

// Frames given as one (N, H, W) luma array or a sequence of 3 plane arrays
// (N, H, W), (N, h, w), (N, h, w); uint8 or uint16 samples. The arrays stay
// referenced here, so their data stays valid while the GIL is released.
struct FrameStack {
    std::vector<py::array> planes;
    int frames = 0, width = 0, height = 0, bpc = 8;
    PixelFormat format = PixelFormat::yuv400;
};

std::string what_prefix(const char* what) { return std::string(what) + ": "; }

// An array whose rows the library can read as a PlaneView: samples within a
// row contiguous, rows at a stride of at least a row's bytes. Any other
// layout (a transposed, reversed or broadcast view) is copied into one.
py::array plane_array(const py::handle& obj, int dims, const char* what) {
    py::array a = py::array::ensure(obj);
    if (!a) throw Error(what_prefix(what) + "expected a numpy array");
    if (a.ndim() != dims)
        throw Error(what_prefix(what) + "expected a " + std::to_string(dims) +
                    "-dimensional array, got " + std::to_string(a.ndim()) + " dimensions");
    if (!a.dtype().is(py::dtype::of<std::uint8_t>()) && !a.dtype().is(py::dtype::of<std::uint16_t>()))
        throw Error(what_prefix(what) + "samples must be uint8 or uint16, got " +
                    py::str(a.dtype()).cast<std::string>());
    const auto item = a.itemsize();
    const bool rows_readable = a.strides(dims - 1) == item && a.strides(dims - 2) >= a.shape(dims - 1) * item;
    if (!rows_readable) a = py::array::ensure(a, py::array::c_style);
    return a;
}

// The library's view of frame `n` of plane array `a` (dims 3: a stack).
vmafpp::PlaneView plane_view(const py::array& a, int n, int dims) {
    const auto* base = static_cast<const std::uint8_t*>(a.data()) + (dims == 3 ? n * a.strides(0) : 0);
    const auto side = [](py::ssize_t v) { return int(std::min<py::ssize_t>(v, INT_MAX)); };
    return {base, side(a.shape(dims - 1)), side(a.shape(dims - 2)), a.strides(dims - 2)};
}

std::vector<vmafpp::PlaneView> frame_views(const FrameStack& s, int n, int dims) {
    std::vector<vmafpp::PlaneView> v;
    for (const auto& a : s.planes) v.push_back(plane_view(a, n, dims));
    return v;
}

FrameStack frame_stack(const py::object& obj, std::optional<int> bitdepth, int dims, const char* what) {
    FrameStack s;
    if (py::isinstance<py::list>(obj) || py::isinstance<py::tuple>(obj)) {
        const auto seq = obj.cast<py::sequence>();
        if (seq.size() != 3 && seq.size() != 1)
            throw Error(what_prefix(what) + "expected 1 or 3 planes, got " + std::to_string(seq.size()));
        for (const auto& p : seq) s.planes.push_back(plane_array(p, dims, what));
    } else {
        s.planes.push_back(plane_array(obj, dims, what));
    }
    const py::array& y = s.planes[0];
    s.frames = dims == 3 ? int(y.shape(0)) : 1;
    s.height = int(y.shape(dims - 2));
    s.width = int(y.shape(dims - 1));
    const bool wide = y.itemsize() == 2;
    for (const auto& p : s.planes)
        if (p.itemsize() != y.itemsize() || (dims == 3 && p.shape(0) != y.shape(0)))
            throw Error(what_prefix(what) + "planes differ in sample type or frame count");
    s.bpc = bitdepth ? *bitdepth : 8;
    if (wide && !bitdepth) throw Error(what_prefix(what) + "uint16 samples need bitdepth= (9..16)");
    if (wide != (s.bpc > 8) || s.bpc < 8 || s.bpc > 16)
        throw Error(what_prefix(what) + "bitdepth " + std::to_string(s.bpc) + " does not fit " +
                    (wide ? "uint16" : "uint8") + " samples");
    return s;
}

// The format of score()'s arrays, from their chroma planes' shape (floor or
// ceil halves, as the library accepts), which the library checks each plane
// against. A Scorer is given its format instead.
void infer_format(FrameStack& s, const char* what) {
    if (s.planes.size() != 3) return;
    const long cw = long(s.planes[1].shape(2)), ch = long(s.planes[1].shape(1));
    auto half = [](long full, long c) { return c == full / 2 || c == (full + 1) / 2; };
    if (cw == s.width && ch == s.height)
        s.format = PixelFormat::yuv444;
    else if (half(s.width, cw) && ch == s.height)
        s.format = PixelFormat::yuv422;
    else if (half(s.width, cw) && half(s.height, ch))
        s.format = PixelFormat::yuv420;
    else
        throw Error(what_prefix(what) + "chroma planes of " + std::to_string(cw) + "x" +
                    std::to_string(ch) + " fit no 4:2:0, 4:2:2 or 4:4:4 layout of " +
                    std::to_string(s.width) + "x" + std::to_string(s.height));
}

const char* format_name(PixelFormat f) {
    switch (f) {
        case PixelFormat::yuv420: return "4:2:0";
        case PixelFormat::yuv422: return "4:2:2";
        case PixelFormat::yuv444: return "4:4:4";
        default: return "luma only";
    }
}

std::string stack_text(const FrameStack& s) {
    return std::to_string(s.width) + "x" + std::to_string(s.height) + " " + format_name(s.format) + " " +
           std::to_string(s.bpc) + "-bit";
}

vmafpp::ScoreRun score_arrays(const py::object& ref, const py::object& dis, std::optional<int> bitdepth,
                              const vmafpp::ScoreConfig& cfg) {
    FrameStack r = frame_stack(ref, bitdepth, 3, "reference");
    FrameStack d = frame_stack(dis, bitdepth, 3, "distorted");
    infer_format(r, "reference");
    infer_format(d, "distorted");
    if (r.width != d.width || r.height != d.height || r.format != d.format || r.bpc != d.bpc)
        throw Error("reference and distorted differ: reference is " + stack_text(r) + ", distorted is " +
                    stack_text(d));
    if (r.frames != d.frames)
        throw Error("reference has " + std::to_string(r.frames) + " frames, distorted has " +
                    std::to_string(d.frames));
    if (r.frames == 0) throw Error("no frames to score: the inputs are empty");
    // Reads the arrays in place: r and d hold them until the scorer, made
    // after them, is gone.
    vmafpp::Scorer scorer(cfg, {r.width, r.height, r.bpc, r.format});
    py::gil_scoped_release nogil;
    for (int n = 0; n < r.frames; ++n) scorer.push(frame_views(r, n, 3), frame_views(d, n, 3));
    return scorer.finish();
}

// A file path as the bytes the OS takes: str (with surrogateescape, as
// os.fsencode), bytes or an os.PathLike.
bool is_path(const py::object& o) {
    return py::isinstance<py::str>(o) || py::isinstance<py::bytes>(o) || py::hasattr(o, "__fspath__");
}

std::string fs_path(const py::object& o) {
    return py::module_::import("os").attr("fsencode")(o).cast<std::string>();
}

py::dict score(const py::object& reference, const py::object& distorted, const py::object& model,
               const std::vector<std::string>& features, unsigned threads, unsigned subsample,
               std::optional<int> bitdepth, int width, int height, const std::string& pixel_format) {
    const vmafpp::ScoreConfig cfg = make_config(model, features, threads, subsample);
    if (is_path(reference) != is_path(distorted))
        throw Error("give both inputs as file paths or both as numpy frames");
    if (!is_path(reference)) return to_dict(score_arrays(reference, distorted, bitdepth, cfg));
    const std::string rp = fs_path(reference);
    const std::string dp = fs_path(distorted);
    // Raw YUV files when width and height are given (the CLI's -w -h -p -b).
    vmafpp::RawFormat raw;
    if (width > 0 || height > 0) {
        raw.width = width;
        raw.height = height;
        raw.bpc = bitdepth ? *bitdepth : 8;
        raw.format = parse_format(pixel_format);
    }
    vmafpp::ScoreRun run;
    {
        py::gil_scoped_release nogil;
        auto r = vmafpp::open_video(rp, raw);
        auto d = vmafpp::open_video(dp, raw);
        run = vmafpp::score(*r, *d, cfg);
    }
    return to_dict(run);
}

// Frames pushed one by one: (H, W) luma or (Y, U, V) planes per call. One
// mutex per scorer serialises push, finish and frames from several threads
// (vmafpp::Scorer is for one thread at a time).
class PyScorer {
public:
    PyScorer(int width, int height, int bitdepth, const std::string& pixel_format,
             const py::object& model, const std::vector<std::string>& features, unsigned threads,
             unsigned subsample)
        : bitdepth_(bitdepth),
          scorer_(std::make_unique<vmafpp::Scorer>(make_config(model, features, threads, subsample),
                                                   vmafpp::FrameGeometry{width, height, bitdepth,
                                                                         parse_format(pixel_format)})) {}

    void push(const py::object& ref, const py::object& dis) {
        const std::unique_lock<std::mutex> lock = lock_scorer();
        if (!scorer_) throw Error("push after finish: the session is over");
        released_.drop();
        auto frame = std::make_unique<Frame>(Frame{frame_stack(ref, bitdepth_, 2, "reference"),
                                                   frame_stack(dis, bitdepth_, 2, "distorted")});
        const std::vector<vmafpp::PlaneView> r = frame_views(frame->ref, 0, 2);
        const std::vector<vmafpp::PlaneView> d = frame_views(frame->dis, 0, 2);
        // The scorer reads the arrays in place until the frame is scored; the
        // frame then goes to released_, without the GIL.
        Frame* held = frame.release();
        const std::shared_ptr<const void> keep_alive(held, [this](const void* f) {
            released_.add(std::unique_ptr<Frame>(static_cast<Frame*>(const_cast<void*>(f))));
        });
        py::gil_scoped_release nogil;
        scorer_->push(r, d, keep_alive);
    }

    py::dict finish() {
        const std::unique_lock<std::mutex> lock = lock_scorer();
        if (!scorer_) throw Error("finish called twice");
        std::unique_ptr<vmafpp::Scorer> s = std::move(scorer_);
        vmafpp::ScoreRun run;
        {
            py::gil_scoped_release nogil;
            run = s->finish();
            s.reset();
        }
        released_.drop();
        return to_dict(run);
    }

    unsigned frames() {
        const std::unique_lock<std::mutex> lock = lock_scorer();
        return scorer_ ? scorer_->frames() : 0;
    }

private:
    // Waits for the mutex without the GIL: the thread holding the mutex
    // takes the GIL back when its scoring ends, so waiting with the GIL
    // would deadlock.
    std::unique_lock<std::mutex> lock_scorer() {
        std::unique_lock<std::mutex> lock(mutex_, std::try_to_lock);
        if (!lock.owns_lock()) {
            py::gil_scoped_release nogil;
            lock.lock();
        }
        return lock;
    }

    // One pushed frame's arrays.
    struct Frame {
        FrameStack ref, dis;
    };
    // Frames the scorer is done with. The scorer lets a frame go on any of
    // its threads, which may not take the GIL (the thread holding it may
    // wait for the scorer); their arrays are released here, with the GIL,
    // at the next push() or finish() or with the PyScorer.
    class Released {
    public:
        void add(std::unique_ptr<Frame> f) {
            const std::lock_guard<std::mutex> lock(mutex_);
            frames_.push_back(std::move(f));
        }
        void drop() {  // with the GIL
            std::vector<std::unique_ptr<Frame>> gone;
            {
                const std::lock_guard<std::mutex> lock(mutex_);
                gone.swap(frames_);
            }
        }

    private:
        std::mutex mutex_;
        std::vector<std::unique_ptr<Frame>> frames_;
    };

    int bitdepth_;
    std::mutex mutex_;
    Released released_;  // before scorer_: outlives it
    std::unique_ptr<vmafpp::Scorer> scorer_;
};

}  // namespace

PYBIND11_MODULE(_vmafpp, m) {
    m.doc() = "VMAF video quality (libvmaf 3.2.0 bit-exact): score() and a streaming Scorer";
    py::register_exception<vmafpp::Error>(m, "Error", PyExc_RuntimeError);
    m.def("version", &vmafpp::version, "vmafpp's version");
    m.attr("__version__") = vmafpp::version();
    m.def("builtin_models", &vmafpp::builtin_model_versions, "names usable as model=");
    m.def("score", &score, py::arg("reference"), py::arg("distorted"),
          py::arg("model") = "vmaf_v0.6.1", py::arg("features") = std::vector<std::string>{},
          py::arg("threads") = 0u, py::arg("subsample") = 1u, py::arg("bitdepth") = py::none(),
          py::arg("width") = 0, py::arg("height") = 0, py::arg("pixel_format") = "420",
          R"(Scores distorted against reference; returns the JSON output as a dict.

reference, distorted: Y4M file paths (raw YUV with width=, height=,
pixel_format=, bitdepth=), or numpy frames: an (N, H, W) luma array or a
(Y, U, V) tuple of (N, h, w) arrays, uint8, or uint16 with bitdepth=. model: a builtin version, a .json path, a -m string, a list of
them, or None. features: --feature strings ("psnr", "adm=debug=true").)");
    py::class_<PyScorer>(m, "Scorer", "Scores frame pairs pushed one by one")
        .def(py::init<int, int, int, const std::string&, const py::object&,
                      const std::vector<std::string>&, unsigned, unsigned>(),
             py::arg("width"), py::arg("height"), py::arg("bitdepth") = 8,
             py::arg("pixel_format") = "420", py::arg("model") = "vmaf_v0.6.1",
             py::arg("features") = std::vector<std::string>{}, py::arg("threads") = 0u,
             py::arg("subsample") = 1u)
        .def("push", &PyScorer::push, py::arg("reference"), py::arg("distorted"),
             "one frame pair: (H, W) luma arrays or (Y, U, V) tuples; read in place, not "
             "copied: the scorer holds them until the frame is scored, and they must not be "
             "written to until finish() returns")
        .def("finish", &PyScorer::finish, "waits for every frame; returns the JSON output as a dict")
        .def_property_readonly("frames", &PyScorer::frames);
}

// The Python module vmafpp._vmafpp (python/vmafpp/__init__.py re-exports it):
// score() on file paths or numpy frames, and a streaming Scorer, both over the
// library's score() / Scorer, so the values are the CLI's bits. The GIL is
// released while frames are scored; vmafpp::Error becomes vmafpp.Error with
// the same one-line message.
#include <pybind11/numpy.h>
#include <pybind11/pybind11.h>
#include <pybind11/stl.h>

#include <cmath>
#include <cstring>
#include <memory>
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
// (N, H, W), (N, h, w), (N, h, w); uint8 or uint16 samples.
struct FrameStack {
    std::vector<py::buffer_info> planes;
    int frames = 0, width = 0, height = 0, bpc = 8;
    PixelFormat format = PixelFormat::yuv400;
};

py::buffer_info plane_buffer(const py::handle& obj, int dims, const char* what) {
    py::array a = py::array::ensure(obj);
    if (!a) throw Error(std::string(what) + ": expected a numpy array");
    if (a.ndim() != dims)
        throw Error(std::string(what) + ": expected a " + std::to_string(dims) +
                    "-dimensional array, got " + std::to_string(a.ndim()) + " dimensions");
    if (!a.dtype().is(py::dtype::of<std::uint8_t>()) && !a.dtype().is(py::dtype::of<std::uint16_t>()))
        throw Error(std::string(what) + ": samples must be uint8 or uint16, got " +
                    py::str(a.dtype()).cast<std::string>());
    return a.request();
}

FrameStack frame_stack(const py::object& obj, std::optional<int> bitdepth, int dims, const char* what) {
    FrameStack s;
    if (py::isinstance<py::list>(obj) || py::isinstance<py::tuple>(obj)) {
        const auto seq = obj.cast<py::sequence>();
        if (seq.size() != 3 && seq.size() != 1)
            throw Error(std::string(what) + ": expected 1 or 3 planes, got " + std::to_string(seq.size()));
        for (const auto& p : seq) s.planes.push_back(plane_buffer(p, dims, what));
    } else {
        s.planes.push_back(plane_buffer(obj, dims, what));
    }
    const py::buffer_info& y = s.planes[0];
    s.frames = dims == 3 ? int(y.shape[0]) : 1;
    s.height = int(y.shape[dims - 2]);
    s.width = int(y.shape[dims - 1]);
    const bool wide = y.itemsize == 2;
    for (const auto& p : s.planes)
        if (p.itemsize != y.itemsize || (dims == 3 && p.shape[0] != y.shape[0]))
            throw Error(std::string(what) + ": planes differ in sample type or frame count");
    s.bpc = bitdepth ? *bitdepth : 8;
    if (wide && !bitdepth) throw Error(std::string(what) + ": uint16 samples need bitdepth= (9..16)");
    if (wide != (s.bpc > 8) || s.bpc < 8 || s.bpc > 16)
        throw Error(std::string(what) + ": bitdepth " + std::to_string(s.bpc) + " does not fit " +
                    (wide ? "uint16" : "uint8") + " samples");
    if (s.planes.size() == 3) {
        // Chroma of floor or ceil size (Y4M's), as the readers accept.
        const long cw = long(s.planes[1].shape[dims - 1]), ch = long(s.planes[1].shape[dims - 2]);
        auto half = [](long full, long c) { return c == full / 2 || c == (full + 1) / 2; };
        if (cw == s.width && ch == s.height)
            s.format = PixelFormat::yuv444;
        else if (half(s.width, cw) && ch == s.height)
            s.format = PixelFormat::yuv422;
        else if (half(s.width, cw) && half(s.height, ch))
            s.format = PixelFormat::yuv420;
        else
            throw Error(std::string(what) + ": chroma planes of " + std::to_string(cw) + "x" +
                        std::to_string(ch) + " fit no 4:2:0, 4:2:2 or 4:4:4 layout of " +
                        std::to_string(s.width) + "x" + std::to_string(s.height));
        if (s.planes[2].shape[dims - 1] != cw || s.planes[2].shape[dims - 2] != ch)
            throw Error(std::string(what) + ": the two chroma planes differ in size");
    }
    return s;
}

// Copies frame `n` of the stack into a picture the scorer made (its planes'
// sizes; planes it does not read are empty and skipped). Needs the GIL.
void fill_picture(const FrameStack& s, int n, int dims, vmafpp::Picture& pic) {
    const int planes = pic.has_chroma() ? 3 : 1;
    if (planes > int(s.planes.size()))
        throw Error("the extractors read chroma: give the frames as (Y, U, V) planes");
    for (int p = 0; p < planes; ++p) {
        const py::buffer_info& b = s.planes[p];
        vmafpp::Plane& dst = pic.planes[p];
        const auto* base = static_cast<const std::uint8_t*>(b.ptr) + (dims == 3 ? n * b.strides[0] : 0);
        const auto rs = b.strides[dims - 2], cs = b.strides[dims - 1];
        for (int y = 0; y < dst.height(); ++y) {
            const std::uint8_t* row = base + y * rs;
            std::uint8_t* out = dst.row<std::uint8_t>(y);
            if (cs == b.itemsize) {
                std::memcpy(out, row, std::size_t(dst.width()) * b.itemsize);
                continue;
            }
            for (int x = 0; x < dst.width(); ++x)
                std::memcpy(out + x * b.itemsize, row + x * cs, b.itemsize);
        }
    }
}

vmafpp::ScoreRun score_arrays(const py::object& ref, const py::object& dis, std::optional<int> bitdepth,
                              const vmafpp::ScoreConfig& cfg) {
    const FrameStack r = frame_stack(ref, bitdepth, 3, "reference");
    const FrameStack d = frame_stack(dis, bitdepth, 3, "distorted");
    if (r.width != d.width || r.height != d.height || r.format != d.format || r.bpc != d.bpc)
        throw Error("reference and distorted differ: reference is " + std::to_string(r.width) + "x" +
                    std::to_string(r.height) + ", distorted is " + std::to_string(d.width) + "x" +
                    std::to_string(d.height) + " (or their planes or bit depths differ)");
    if (r.frames != d.frames)
        throw Error("reference has " + std::to_string(r.frames) + " frames, distorted has " +
                    std::to_string(d.frames));
    if (r.frames == 0) throw Error("no frames to score: the inputs are empty");
    vmafpp::Scorer scorer(cfg, {r.width, r.height, r.bpc, r.format});
    for (int n = 0; n < r.frames; ++n) {
        vmafpp::Picture rp = scorer.make_picture(), dp = scorer.make_picture();
        fill_picture(r, n, 3, rp);
        fill_picture(d, n, 3, dp);
        py::gil_scoped_release nogil;
        scorer.push(std::move(rp), std::move(dp));
    }
    py::gil_scoped_release nogil;
    return scorer.finish();
}

py::dict score(const py::object& reference, const py::object& distorted, const py::object& model,
               const std::vector<std::string>& features, unsigned threads, unsigned subsample,
               std::optional<int> bitdepth, int width, int height, const std::string& pixel_format) {
    const vmafpp::ScoreConfig cfg = make_config(model, features, threads, subsample);
    const auto is_path = [](const py::object& o) {
        return py::isinstance<py::str>(o) || py::hasattr(o, "__fspath__");
    };
    if (is_path(reference) != is_path(distorted))
        throw Error("give both inputs as file paths or both as numpy frames");
    if (!is_path(reference)) return to_dict(score_arrays(reference, distorted, bitdepth, cfg));
    const auto fspath = py::module_::import("os").attr("fspath");
    const std::string rp = fspath(reference).cast<std::string>();
    const std::string dp = fspath(distorted).cast<std::string>();
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

// Frames pushed one by one: (H, W) luma or (Y, U, V) planes per call.
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
        if (!scorer_) throw Error("push after finish: the session is over");
        const FrameStack r = frame_stack(ref, bitdepth_, 2, "reference");
        const FrameStack d = frame_stack(dis, bitdepth_, 2, "distorted");
        const vmafpp::FrameGeometry& g = scorer_->geometry();
        for (const FrameStack* s : {&r, &d})
            if (s->width != g.width || s->height != g.height)
                throw Error("frame of " + std::to_string(s->width) + "x" + std::to_string(s->height) +
                            " does not match the scorer's " + std::to_string(g.width) + "x" +
                            std::to_string(g.height));
        vmafpp::Picture rp = scorer_->make_picture(), dp = scorer_->make_picture();
        fill_picture(r, 0, 2, rp);
        fill_picture(d, 0, 2, dp);
        py::gil_scoped_release nogil;
        scorer_->push(std::move(rp), std::move(dp));
    }

    py::dict finish() {
        if (!scorer_) throw Error("finish called twice");
        std::unique_ptr<vmafpp::Scorer> s = std::move(scorer_);
        vmafpp::ScoreRun run;
        {
            py::gil_scoped_release nogil;
            run = s->finish();
        }
        return to_dict(run);
    }

    unsigned frames() const { return scorer_ ? scorer_->frames() : 0; }

private:
    int bitdepth_;
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
             "one frame pair: (H, W) luma arrays or (Y, U, V) tuples")
        .def("finish", &PyScorer::finish, "waits for every frame; returns the JSON output as a dict")
        .def_property_readonly("frames", &PyScorer::frames);
}

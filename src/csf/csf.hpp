// Contrast sensitivity models shared by integer ADM (src/adm) and float ADM
// (src/float_adm): Watson's wavelet quantisation thresholds, Barten's CSF and
// the display resolution they are evaluated at. Each holds libvmaf's
// float/double mix, so both extractors get libvmaf's bits.
//
// Why a folder of its own: the models and their tables belong to neither
// extractor (libvmaf keeps them in one header that both include), and the
// mode numbers differ (float ADM's mode 2 is ADM's own CSF, integer ADM's is
// the Barten/Watson blend), so each extractor maps its modes onto these.
#pragma once

namespace vmafpp::csf {

// The adapting luminance libvmaf evaluates Barten's CSF at, in cd/m^2.
inline constexpr double kBartenLuminance = 100.0;

// Display resolution in pixels per degree of visual angle: the double
// product norm_view_dist * ref_display_height * pi / 180, narrowed to float.
float pixels_per_degree(double norm_view_dist, int ref_display_height);

// Watson et al. 1997, "Visibility of wavelet quantization noise": the
// quantisation step Q of formula (9) for the luma channel at DWT level
// `lambda` (0..5) and orientation `theta` (1: h/v, 2: d).
float watson_quant_step(int lambda, int theta, double norm_view_dist, int ref_display_height);

// How barten_csf() takes log10 of the two luminance anchors it interpolates
// between. libvmaf's C (and integer ADM) widens the float anchor to double
// and narrows the double log10; float ADM used C++'s float overload
// (log10f). The two differ in the last bit at the 0.02 anchor, which only
// luminances below 0.2 use; at kBartenLuminance (anchors 20 and 150, the
// only luminance either extractor asks for) they agree
// (tests/unit/csf_test.cpp). Each caller keeps the expression it had.
enum class AnchorLog { double_log10, float_log10 };

// Barten's CSF as simplified in HDR-VDP-2 (Mantiuk et al. 2011) at DWT level
// `lambda`, adapting luminance `luminance` (cd/m^2), times `scale`.
float barten_csf(int lambda, double norm_view_dist, int ref_display_height, double luminance,
                 double scale, AnchorLog anchor_log = AnchorLog::double_log10);

}  // namespace vmafpp::csf

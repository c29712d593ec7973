#include "brec/eval/siamese.hpp"

#include <chrono>
#include <cmath>
#include <iomanip>
#include <set>
#include <sstream>

#include <torch/torch.h>

#include "brec/core/error.hpp"
#include "brec/graph/algorithms.hpp"
#include "brec/io/graph6.hpp"
#include "brec/nn/models.hpp"

namespace brec {
namespace {

/// ReduceLROnPlateau with PyTorch's defaults (mode min, factor 0.1, patience 10, relative
/// threshold 1e-4, cooldown 0, min_lr 0); LibTorch 1.13 has no such scheduler.
class PlateauScheduler {
public:
    explicit PlateauScheduler(torch::optim::Adam& opt) : opt_(opt) {}
    void step(double metric) {
        if (metric < best_ * (1.0 - 1e-4)) {
            best_ = metric;
            bad_ = 0;
        } else {
            ++bad_;
        }
        if (bad_ > 10) {
            for (auto& group : opt_.param_groups()) {
                auto& o = static_cast<torch::optim::AdamOptions&>(group.options());
                o.lr(o.lr() * 0.1);
            }
            bad_ = 0;
        }
    }

private:
    torch::optim::Adam& opt_;
    double best_ = INFINITY;
    int bad_ = 0;
};

/// Embeddings of all graphs of the model's current set, in consecutive batches.
torch::Tensor embed_all(GraphEmbedderImpl& model, std::size_t count, int batch) {
    std::vector<torch::Tensor> parts;
    for (std::size_t b = 0; b < count; b += static_cast<std::size_t>(batch))
        parts.push_back(model.forward_range(b, std::min(count, b + static_cast<std::size_t>(batch))));
    return torch::cat(parts, 0);
}

Eigen::MatrixXd to_eigen(const torch::Tensor& t) {
    const auto c = t.to(torch::kCPU, torch::kDouble).contiguous();
    Eigen::MatrixXd m(c.size(0), c.size(1));
    const double* p = c.data_ptr<double>();
    for (long i = 0; i < c.size(0); ++i)
        for (long j = 0; j < c.size(1); ++j) m(i, j) = p[i * c.size(1) + j];
    return m;
}

double embeddings_t2(const torch::Tensor& emb, T2Form form, double relative_noise) {
    return paired_t2(to_eigen(emb), form, relative_noise);
}

}  // namespace

double paired_t2(const Eigen::MatrixXd& emb, T2Form form, double relative_noise) {
    if (emb.rows() % 2) throw InvalidArgument("paired_t2: odd number of embeddings");
    const Eigen::Index q = emb.rows() / 2;
    Eigen::MatrixXd x(q, emb.cols()), y(q, emb.cols());
    for (Eigen::Index i = 0; i < q; ++i) {
        x.row(i) = emb.row(2 * i);
        y.row(i) = emb.row(2 * i + 1);
    }
    const double scale = std::max({1.0, x.cwiseAbs().maxCoeff(), y.cwiseAbs().maxCoeff()});
    const double noise = relative_noise * scale;
    return hotelling_t2_paired(x, y, form, noise * noise).t2;
}

RpcDecision rpc_from_embeddings(const Eigen::MatrixXd& test, const Eigen::MatrixXd& reliability,
                                const EvalOptions& opt) {
    if (test.rows() != reliability.rows() || test.cols() != reliability.cols())
        throw InvalidArgument("rpc_from_embeddings: the test and reliability groups differ in shape");
    const double threshold = rpc_threshold(static_cast<int>(test.rows() / 2), static_cast<int>(test.cols()), opt.alpha);
    return rpc_decide(paired_t2(test, opt.t2_form, opt.relative_noise),
                      paired_t2(reliability, opt.t2_form, opt.relative_noise), threshold);
}

ResolvedHyper resolve_hyper(const EvalOptions& opt) {
    const ModelSpec& s = find_model_spec(opt.model);
    ResolvedHyper h{opt.layers >= 0 ? opt.layers : s.layers, opt.hidden >= 0 ? opt.hidden : s.hidden,
                    opt.batch >= 0 ? opt.batch : s.batch, opt.epochs >= 0 ? opt.epochs : s.epochs,
                    opt.lr >= 0 ? opt.lr : s.lr, opt.weight_decay >= 0 ? opt.weight_decay : s.weight_decay,
                    opt.loss_threshold >= 0 ? opt.loss_threshold : s.loss_threshold};
    if (h.layers < 1 || h.hidden < 1) throw InvalidArgument("--layers and --hidden must be >= 1");
    if (h.batch < 2 || h.batch % 2) throw InvalidArgument("--batch must be an even number >= 2 (pairs of graphs)");
    if (h.epochs < 0) throw InvalidArgument("--epochs must be >= 0");
    if (h.lr <= 0) throw InvalidArgument("--lr must be > 0");
    if (opt.q <= opt.out_dim) throw InvalidArgument("--q must exceed the output dimension " + std::to_string(opt.out_dim) + " (T² needs q > d)");
    if (opt.rapc && opt.rapc_groups < 1) throw InvalidArgument("--rapc-groups must be >= 1");
    return h;
}

std::vector<Graph> relabelings(const Graph& g, int count, Rng& rng) {
    std::vector<Graph> out{g};
    std::set<std::string> seen{to_graph6(g)};
    for (int i = 1; i < count; ++i) {
        Graph h;
        for (int attempt = 0; attempt < 100; ++attempt) {
            h = permute(g, rng.permutation(g.n()));
            if (seen.insert(to_graph6(h)).second) break;
        }
        out.push_back(std::move(h));
    }
    return out;
}

PairEvaluation evaluate_pair(const GraphPairRecord& pair, const EvalOptions& opt, std::uint64_t seed) {
    const auto start = std::chrono::steady_clock::now();
    const ResolvedHyper hp = resolve_hyper(opt);
    const torch::Device device = parse_device(opt.device);
    if (opt.torch_threads > 0)
        at::set_num_threads(static_cast<int>(pair.a.n()) < opt.single_thread_below ? 1 : opt.torch_threads);
    const std::uint64_t stream = stream_seed(seed, static_cast<std::uint64_t>(pair.id));
    Rng rng(stream);
    PairEvaluation r;
    r.id = pair.id;
    r.category = pair.category;
    r.n = pair.a.n();

    // Data: q relabelings of G and of H interleaved; 2q relabelings of one graph for reliability.
    const auto ga = relabelings(pair.a, opt.q, rng), gb = relabelings(pair.b, opt.q, rng);
    std::vector<Graph> traintest;
    for (int i = 0; i < opt.q; ++i) {
        traintest.push_back(ga[static_cast<std::size_t>(i)]);
        traintest.push_back(gb[static_cast<std::size_t>(i)]);
    }
    const bool use_b = rng.below(2) == 1;
    const auto reliability = relabelings(use_b ? pair.b : pair.a, 2 * opt.q, rng);

    try {
        torch::manual_seed(stream);
        EmbedderOptions eo;
        eo.layers = hp.layers;
        eo.hidden = hp.hidden;
        eo.out_dim = opt.out_dim;
        eo.kernel = opt.kernel;
        eo.output_norm = opt.output_norm;
        auto model = make_embedder(opt.model, eo);
        model->to(device);
        model->set_graphs(traintest, device);
        const std::size_t count = traintest.size();
        const auto train_start = std::chrono::steady_clock::now();
        if (opt.train && hp.epochs > 0) {
            torch::optim::Adam adam(model->parameters(), torch::optim::AdamOptions(hp.lr).weight_decay(hp.weight_decay));
            PlateauScheduler scheduler(adam);
            model->train();
            for (int epoch = 0; epoch < hp.epochs; ++epoch) {
                double epoch_loss = 0.0;
                for (std::size_t b = 0; b < count; b += static_cast<std::size_t>(hp.batch)) {
                    const std::size_t e = std::min(count, b + static_cast<std::size_t>(hp.batch));
                    adam.zero_grad();
                    const auto out = model->forward_range(b, e);
                    const auto x = out.slice(0, 0, out.size(0), 2), y = out.slice(0, 1, out.size(0), 2);
                    // CosineEmbeddingLoss with target -1 and margin 0: mean of max(0, cos).
                    const auto loss = torch::clamp_min(torch::cosine_similarity(x, y, 1, 1e-8), 0.0).mean();
                    loss.backward();
                    adam.step();
                    epoch_loss += static_cast<double>(e - b) / 2.0 * loss.item<double>();
                }
                epoch_loss /= opt.q;
                r.losses.push_back(epoch_loss);
                ++r.epochs;
                if (epoch_loss < hp.loss_threshold) break;
                scheduler.step(epoch_loss);
            }
            r.final_loss = r.losses.empty() ? 0.0 : r.losses.back();
        }
        r.train_seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - train_start).count();
        model->eval();
        torch::NoGradGuard no_grad;
        r.t2_test = embeddings_t2(embed_all(*model, count, hp.batch), opt.t2_form, opt.relative_noise);
        model->set_graphs(reliability, device);
        r.t2_reliability = embeddings_t2(embed_all(*model, reliability.size(), hp.batch), opt.t2_form, opt.relative_noise);
        r.threshold = rpc_threshold(opt.q, opt.out_dim, opt.alpha);
        if (opt.rapc) {
            // p groups of 2q relabelings for each graph; T² between the two halves of each group.
            std::vector<double> group_t2;
            for (const Graph* g : {&pair.a, &pair.b})
                for (int p = 0; p < opt.rapc_groups; ++p) {
                    const auto group = relabelings(*g, 2 * opt.q, rng);
                    std::vector<Graph> interleaved;
                    for (int i = 0; i < opt.q; ++i) {
                        interleaved.push_back(group[static_cast<std::size_t>(i)]);
                        interleaved.push_back(group[static_cast<std::size_t>(opt.q + i)]);
                    }
                    model->set_graphs(interleaved, device);
                    group_t2.push_back(embeddings_t2(embed_all(*model, interleaved.size(), hp.batch), opt.t2_form, opt.relative_noise));
                }
            r.threshold = rapc_threshold(group_t2);
        }
    } catch (const c10::Error& e) {
        throw Error("LibTorch error on pair " + std::to_string(pair.id) + ": " + e.what_without_backtrace());
    }
    const RpcDecision d = rpc_decide(r.t2_test, r.t2_reliability, r.threshold);
    r.distinguished = d.distinguished;
    r.reliable = d.reliable;
    r.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    return r;
}

int set_torch_threads(int threads) {
    const int previous = at::get_num_threads();
    if (threads > 0) at::set_num_threads(threads);
    return previous;
}

std::string describe_models() {
    std::ostringstream out;
    out << std::left << std::setw(12) << "model" << std::setw(6) << "impl" << std::setw(4) << "r" << std::setw(4) << "L"
        << std::setw(5) << "h" << std::setw(8) << "lr" << std::setw(8) << "wd" << std::setw(5) << "b" << std::setw(5) << "E"
        << std::setw(6) << "t" << "family\n";
    for (const auto& s : model_specs())
        out << std::left << std::setw(12) << s.name << std::setw(6) << (s.implemented ? "yes" : "-")
            << std::setw(4) << (s.radius ? std::to_string(s.radius) : "-") << std::setw(4) << s.layers << std::setw(5) << s.hidden
            << std::setw(8) << s.lr << std::setw(8) << s.weight_decay << std::setw(5) << s.batch << std::setw(5) << s.epochs
            << std::setw(6) << s.loss_threshold << s.family << "\n";
    return out.str();
}

}  // namespace brec

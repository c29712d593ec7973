#include "brec/classify_torch/gin.hpp"

#include <algorithm>
#include <cmath>
#include <iomanip>
#include <map>
#include <sstream>

#include "brec/core/error.hpp"
#include "brec/core/rng.hpp"
#include "brec/nn/device.hpp"
#include "brec/nn/model.hpp"

namespace brec {

std::int64_t NodeFeatureEncoding::width() const {
    return by_label ? static_cast<std::int64_t>(labels.size()) : static_cast<std::int64_t>(max_degree) + 1;
}

std::vector<std::int64_t> NodeFeatureEncoding::columns(const Graph& g) const {
    std::vector<std::int64_t> out(g.n());
    for (VertexId v = 0; v < g.n(); ++v) {
        if (by_label) {
            const auto it = std::lower_bound(labels.begin(), labels.end(), g.node_label(v));
            if (it == labels.end() || *it != g.node_label(v))
                throw InvalidArgument("node label " + std::to_string(g.node_label(v)) + " is not in the encoding");
            out[v] = it - labels.begin();
        } else {
            if (g.degree(v) > max_degree)
                throw InvalidArgument("degree " + std::to_string(g.degree(v)) + " exceeds the encoding's maximum " +
                                      std::to_string(max_degree));
            out[v] = static_cast<std::int64_t>(g.degree(v));
        }
    }
    return out;
}

NodeFeatureEncoding node_feature_encoding(const std::vector<Graph>& graphs) {
    NodeFeatureEncoding e;
    for (const Graph& g : graphs) e.by_label = e.by_label || g.has_node_labels();
    for (const Graph& g : graphs)
        for (VertexId v = 0; v < g.n(); ++v) {
            if (e.by_label)
                e.labels.push_back(g.node_label(v));
            else
                e.max_degree = std::max<VertexId>(e.max_degree, static_cast<VertexId>(g.degree(v)));
        }
    std::sort(e.labels.begin(), e.labels.end());
    e.labels.erase(std::unique(e.labels.begin(), e.labels.end()), e.labels.end());
    if (e.by_label && e.labels.empty()) e.labels.push_back(0);
    return e;
}

GinBatch make_gin_batch(const std::vector<Graph>& graphs, const std::vector<std::vector<std::int64_t>>& columns,
                        std::int64_t width, const std::vector<std::size_t>& which, torch::Device device) {
    std::vector<Graph> chosen;
    chosen.reserve(which.size());
    std::vector<std::int64_t> cols;
    for (std::size_t i : which) {
        chosen.push_back(graphs[i]);
        cols.insert(cols.end(), columns[i].begin(), columns[i].end());
    }
    GinBatch b;
    b.graph = nn::make_sparse_batch(chosen, 0, chosen.size(), device);
    const auto index = torch::tensor(cols, torch::kLong);
    b.x = torch::one_hot(index, width).to(torch::kFloat).to(device);
    return b;
}

GinClassifierNetImpl::GinClassifierNetImpl(std::int64_t in, std::int64_t classes, const GinClassifierOptions& opt,
                                           torch::Generator& init)
    : dropout(opt.dropout) {
    std::int64_t last = in;
    heads.push_back(register_module("head0", nn::Linear(in, classes, init)));
    for (int l = 0; l < opt.layers; ++l) {
        const std::string k = std::to_string(l);
        mlps.push_back(register_module("mlp" + k, nn::BnMlp(last, opt.hidden, opt.hidden, init)));
        norms.push_back(register_module("bn" + k, nn::batch_norm(opt.hidden)));
        heads.push_back(register_module("head" + std::to_string(l + 1), nn::Linear(opt.hidden, classes, init)));
        last = opt.hidden;
    }
}

torch::Tensor GinClassifierNetImpl::forward(const GinBatch& b, torch::Generator* dropout_gen) {
    const nn::SparseBatch& g = b.graph;
    auto score_of = [&](std::size_t l, const torch::Tensor& h) {
        auto s = heads[l]->forward(nn::scatter_sum(h, g.graph_of, g.graphs));
        if (is_training() && dropout > 0) {
            auto keep = torch::empty_like(s);
            if (dropout_gen)
                keep.bernoulli_(1.0 - dropout, *dropout_gen);
            else
                keep.bernoulli_(1.0 - dropout);
            s = s * keep / (1.0 - dropout);
        }
        return s;
    };
    torch::Tensor h = b.x;
    torch::Tensor score = score_of(0, h);
    for (std::size_t l = 0; l < mlps.size(); ++l) {
        // Sum over the neighbours and the node itself (ε = 0).
        const auto pooled = nn::neighbour_sum(h, g.src, g.dst) + h;
        h = torch::relu(norms[l]->forward(mlps[l]->forward(pooled)));
        score = score + score_of(l + 1, h);
    }
    return torch::log_softmax(score, 1);
}

torch::Tensor GinClassifierNetImpl::graph_embedding(const GinBatch& b) {
    const nn::SparseBatch& g = b.graph;
    torch::Tensor h = b.x;
    std::vector<torch::Tensor> pooled{nn::scatter_sum(h, g.graph_of, g.graphs)};
    for (std::size_t l = 0; l < mlps.size(); ++l) {
        h = torch::relu(norms[l]->forward(mlps[l]->forward(nn::neighbour_sum(h, g.src, g.dst) + h)));
        pooled.push_back(nn::scatter_sum(h, g.graph_of, g.graphs));
    }
    return torch::cat(pooled, 1);
}

namespace {

void check_options(const GinClassifierOptions& opt) {
    if (opt.layers < 1) throw InvalidArgument("--gin-layers must be at least 1");
    if (opt.hidden < 1) throw InvalidArgument("--gin-hidden must be at least 1");
    if (opt.epochs < 1) throw InvalidArgument("--epochs must be at least 1");
    if (opt.batch < 1) throw InvalidArgument("--batch must be at least 1");
    if (!(opt.lr > 0)) throw InvalidArgument("--lr must be positive");
    if (opt.lr_halving < 0) throw InvalidArgument("--lr-halving must be >= 0");
    if (!(opt.dropout >= 0 && opt.dropout < 1)) throw InvalidArgument("--dropout must be in [0, 1)");
    if (!(opt.validation > 0 && opt.validation < 1)) throw InvalidArgument("--validation must be in (0, 1)");
    if (opt.warmup < 1 || opt.warmup > opt.epochs)
        throw InvalidArgument("--warmup must be between 1 and --epochs (" + std::to_string(opt.epochs) +
                              "): the chosen epoch is the best one from --warmup on");
    parse_device(opt.device);
}

std::vector<std::int64_t> argmax_rows(const torch::Tensor& log_probs) {
    const auto a = log_probs.argmax(1).to(torch::kCPU).contiguous();
    return std::vector<std::int64_t>(a.data_ptr<std::int64_t>(), a.data_ptr<std::int64_t>() + a.numel());
}

}  // namespace

GinFoldResult train_gin_fold(const std::vector<Graph>& graphs, const std::vector<std::int64_t>& classes,
                             std::int64_t num_classes, const NodeFeatureEncoding& encoding, const Fold& fold,
                             const GinClassifierOptions& opt, std::uint64_t stream, RunContext* ctx) {
    check_options(opt);
    const torch::Device device = parse_device(opt.device);
    // Folds run in parallel (--jobs); one intra-op thread each keeps results independent of it.
    set_torch_threads(1);
    Rng rng(stream);
    std::vector<std::size_t> train = fold.train;
    rng.shuffle(train);
    const auto n_val = static_cast<std::size_t>(std::ceil(opt.validation * static_cast<double>(train.size())));
    if (n_val < 1 || n_val >= train.size())
        throw InvalidArgument("the training fold (" + std::to_string(train.size()) +
                              " graphs) is too small to hold out a validation set");
    const std::vector<std::size_t> val(train.begin(), train.begin() + static_cast<std::ptrdiff_t>(n_val));
    train.erase(train.begin(), train.begin() + static_cast<std::ptrdiff_t>(n_val));

    std::vector<std::vector<std::int64_t>> columns(graphs.size());
    for (std::size_t i = 0; i < graphs.size(); ++i) columns[i] = encoding.columns(graphs[i]);
    const std::int64_t width = encoding.width();
    auto targets = [&](const std::vector<std::size_t>& which) {
        std::vector<std::int64_t> y;
        for (std::size_t i : which) y.push_back(classes[i]);
        return y;
    };

    GinFoldResult res;
    res.train = train.size();
    res.validation = val.size();
    try {
        ModelRandom random = make_model_random(stream, device);
        GinClassifierNet net(width, num_classes, opt, random.init);
        net->to(device);
        torch::optim::Adam adam(net->parameters(), torch::optim::AdamOptions(opt.lr));
        const GinBatch val_batch = make_gin_batch(graphs, columns, width, val, device);
        const GinBatch test_batch = make_gin_batch(graphs, columns, width, fold.test, device);
        const std::vector<std::int64_t> val_y = targets(val);
        double lr = opt.lr, best = -1;
        for (int epoch = 1; epoch <= opt.epochs; ++epoch) {
            if (ctx) ctx->throw_if_cancelled();
            if (opt.lr_halving > 0 && epoch % opt.lr_halving == 0) {
                lr *= 0.5;
                for (auto& group : adam.param_groups()) static_cast<torch::optim::AdamOptions&>(group.options()).lr(lr);
            }
            net->train();
            rng.shuffle(train);
            double total = 0;
            for (std::size_t b = 0; b < train.size(); b += static_cast<std::size_t>(opt.batch)) {
                const std::vector<std::size_t> part(
                    train.begin() + static_cast<std::ptrdiff_t>(b),
                    train.begin() + static_cast<std::ptrdiff_t>(std::min(train.size(), b + opt.batch)));
                const GinBatch batch = make_gin_batch(graphs, columns, width, part, device);
                const auto y = torch::tensor(targets(part), torch::kLong).to(device);
                adam.zero_grad();
                const auto loss = torch::nll_loss(net->forward(batch, &random.run), y);
                loss.backward();
                adam.step();
                total += loss.item<double>() * static_cast<double>(part.size());
            }
            res.losses.push_back(total / static_cast<double>(train.size()));
            if (epoch < opt.warmup) continue;
            net->eval();
            torch::NoGradGuard no_grad;
            const auto pred = argmax_rows(net->forward(val_batch));
            std::size_t right = 0;
            for (std::size_t k = 0; k < pred.size(); ++k) right += pred[k] == val_y[k];
            const double acc = static_cast<double>(right) / static_cast<double>(val_y.size());
            // The first epoch with the best validation accuracy (strictly better replaces it).
            if (acc > best) {
                best = acc;
                res.epoch = epoch;
                res.validation_accuracy = acc;
                res.predictions = argmax_rows(net->forward(test_batch));
            }
        }
    } catch (const c10::Error& e) {
        throw Error(std::string("GIN training failed in LibTorch: ") + e.what_without_backtrace());
    }
    return res;
}

namespace {

class GinFoldClassifier : public FoldClassifier {
public:
    GinFoldClassifier(const std::vector<Graph>& graphs, const std::vector<Label>& labels, GinClassifierOptions opt)
        : graphs_(graphs), encoding_(node_feature_encoding(graphs)), opt_(std::move(opt)) {
        // Classes are the distinct target labels in increasing order.
        class_labels_ = labels;
        std::sort(class_labels_.begin(), class_labels_.end());
        class_labels_.erase(std::unique(class_labels_.begin(), class_labels_.end()), class_labels_.end());
        for (Label y : labels)
            classes_.push_back(std::lower_bound(class_labels_.begin(), class_labels_.end(), y) - class_labels_.begin());
    }
    FoldFit fit_predict(const Fold& fold, std::uint64_t stream, RunContext& ctx) const override {
        const GinFoldResult r = train_gin_fold(graphs_, classes_, static_cast<std::int64_t>(class_labels_.size()),
                                               encoding_, fold, opt_, stream, &ctx);
        FoldFit fit;
        for (std::int64_t c : r.predictions) fit.predictions.push_back(class_labels_[static_cast<std::size_t>(c)]);
        fit.details = {{"epoch", r.epoch},
                       {"val_acc", r.validation_accuracy},
                       {"train", r.train},
                       {"validation", r.validation},
                       {"loss_first", r.losses.front()},
                       {"loss_last", r.losses.back()},
                       {"features", encoding_.by_label ? "label" : "degree"},
                       {"width", encoding_.width()}};
        return fit;
    }

private:
    std::vector<Graph> graphs_;
    NodeFeatureEncoding encoding_;
    GinClassifierOptions opt_;
    std::vector<Label> class_labels_;
    std::vector<std::int64_t> classes_;
};

}  // namespace

ClassifierMaker gin_classifier(const GinClassifierOptions& opt) {
    check_options(opt);
    ClassifierMaker m;
    m.model = "gin";
    std::ostringstream o;
    o << std::setprecision(17) << "L=" << opt.layers << ";hidden=" << opt.hidden << ";epochs=" << opt.epochs
      << ";batch=" << opt.batch << ";lr=" << opt.lr << ";halving=" << opt.lr_halving << ";dropout=" << opt.dropout
      << ";val=" << opt.validation << ";warmup=" << opt.warmup;
    m.settings = o.str();
    m.prepare = [opt](const std::vector<Graph>& graphs, const std::vector<Label>& labels, RunContext&) {
        return std::make_unique<GinFoldClassifier>(graphs, labels, opt);
    };
    return m;
}

ClassifyResult run_classify_torch(const ClassifyOptions& opt, RunContext& ctx) {
    if (opt.model != "gin") return run_classify(opt, ctx);
    const ClassifierMaker maker = gin_classifier(opt.gin);
    set_blas_threads(1);
    tune_cpu_allocator();
    return run_classify(opt, maker, ctx);
}

}  // namespace brec

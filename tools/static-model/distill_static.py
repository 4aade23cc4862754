#!/usr/bin/python3
"""Distils a static (one vector per word piece) embedding model from the teacher outputs of StaticModelTeacher.

Steps (model2vec, then tokenlearn):
  1. targets: PCA (--dim, default 256) fitted on the teacher's embeddings of the training chunks; every chunk's
     teacher embedding projected into that space and L2-normalised;
  2. initial token vectors: each vocabulary token's teacher embedding (the token passed alone) projected with the
     same PCA, scaled by a SIF weight a / (a + p(token)) with p the token's smoothed frequency in the training chunks
     (model2vec's frequency weighting; a = --sif, default 1e-3); special tokens get a zero vector;
  3. refinement: the token vectors are fitted so that the normalised sum of a chunk's token vectors (the word pieces
     the teacher saw) reproduces the chunk's target (cosine loss), with an L2 pull towards the initial vectors,
     early-stopped on a held-out tenth of the chunks;
  4. int8 quantisation with one float32 scale per row (the token weight is folded into the vector, so the runtime
     sums rows and normalises), written in the .ntsm format read by dev.neuraltext.onnx.StaticEmbedder.

All seeds fixed; torch runs deterministic algorithms on --threads CPU threads.
"""
import argparse
import json
import struct
import sys
import time
import zlib
import resource

import numpy as np
import torch
from sklearn.decomposition import PCA

MAGIC = b"NTSTATIC"
VERSION = 1


def log(msg):
    print(msg, file=sys.stderr, flush=True)


def load(work, queries):
    vocab = np.load(f"{work}/vocab_teacher.npy").astype(np.float64)
    chunks = np.load(f"{work}/chunk_teacher.npy").astype(np.float64)
    ids = np.load(f"{work}/chunk_ids.npy")
    offsets = np.load(f"{work}/chunk_offsets.npy")
    seen = np.load(f"{work}/chunk_seen.npy")
    pieces = [ids[offsets[i]:offsets[i] + seen[i]] for i in range(len(seen))]
    query_vectors = np.zeros((0, chunks.shape[1]))
    if queries:
        query_vectors = np.load(f"{work}/query_teacher.npy").astype(np.float64)
        q_ids = np.load(f"{work}/query_ids.npy")
        q_offsets = np.load(f"{work}/query_offsets.npy")
        pieces += [q_ids[q_offsets[i]:q_offsets[i + 1]] for i in range(len(q_offsets) - 1)]
    return vocab, chunks, query_vectors, ids, pieces


def special_ids(tokenizer_json):
    return sorted(t["id"] for t in tokenizer_json.get("added_tokens", []) if t.get("special"))


def bags(pieces, rows):
    """Flat token ids and bag offsets of the examples in `rows`."""
    parts = [pieces[i] for i in rows]
    lengths = np.array([len(p) for p in parts], dtype=np.int64)
    flat = np.concatenate(parts) if parts else np.zeros(0, dtype=np.int64)
    starts = np.concatenate([[0], np.cumsum(lengths)[:-1]])
    return torch.from_numpy(flat.astype(np.int64)), torch.from_numpy(starts.astype(np.int64))


def cosine_to_targets(weights, flat, starts, targets):
    pred = torch.nn.functional.embedding_bag(flat, weights, starts, mode="sum")
    return torch.nn.functional.cosine_similarity(pred, targets, dim=1, eps=1e-8)


def main():
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--work", required=True, help="directory with StaticModelTeacher's outputs and tokenizer.json")
    p.add_argument("--out", required=True, help="the .ntsm model file to write")
    p.add_argument("--name", default="bge-small-static-code-256", help="model name recorded in the file")
    p.add_argument("--dim", type=int, default=256)
    p.add_argument("--sif", type=float, default=1e-3)
    p.add_argument("--seed", type=int, default=24)
    p.add_argument("--epochs", type=int, default=30)
    p.add_argument("--batch", type=int, default=128)
    p.add_argument("--lr", type=float, default=3e-3)
    p.add_argument("--pull", type=float, default=1e-4, help="L2 weight pulling token vectors to their start")
    p.add_argument("--holdout", type=float, default=0.1)
    p.add_argument("--threads", type=int, default=2)
    p.add_argument("--no-refine", action="store_true", help="no per-token refinement")
    p.add_argument("--space", choices=["chunks", "vocab"], default="chunks",
                   help="fit the PCA on the chunk embeddings (default) or on the vocabulary's (model2vec)")
    p.add_argument("--queries", action="store_true",
                   help="also fit the teacher's query embeddings of query-like sentences (query_teacher.npy)")
    p.add_argument("--map-epochs", type=int, default=0,
                   help="epochs of a shared linear map fitted before the per-token refinement (0: none)")
    a = p.parse_args()
    t_start = time.time()
    np.random.seed(a.seed)
    torch.manual_seed(a.seed)
    torch.set_num_threads(a.threads)
    torch.use_deterministic_algorithms(True)

    with open(f"{a.work}/tokenizer.json", "rb") as f:
        tokenizer_bytes = f.read()
    specials = special_ids(json.loads(tokenizer_bytes))
    vocab, chunks, query_vectors, ids, pieces = load(a.work, a.queries)
    n_vocab, n_chunks = vocab.shape[0], chunks.shape[0]
    log(f"teacher: vocabulary {vocab.shape}, chunks {chunks.shape}, queries {query_vectors.shape}, {len(ids)} word"
        f" pieces in the chunks, specials {specials}")

    # 1. the target space: PCA of the teacher's chunk (or vocabulary) embeddings
    pca = PCA(n_components=a.dim, svd_solver="full", random_state=a.seed).fit(chunks if a.space == "chunks" else vocab)
    log(f"PCA {a.dim} on the {a.space}: {pca.explained_variance_ratio_.sum():.4f} of their variance kept")
    # centred on the chunks' mean: the direction all texts share carries no ranking
    projected = pca.transform(chunks)
    centre = projected.mean(axis=0)
    targets = np.vstack([projected, pca.transform(query_vectors)]) - centre if len(query_vectors) else projected - centre
    targets /= np.linalg.norm(targets, axis=1, keepdims=True)
    n_examples = targets.shape[0]

    # 2. model2vec start: token vectors in the same space, SIF-weighted by training-corpus frequency
    counts = np.bincount(ids, minlength=n_vocab).astype(np.float64)
    prob = (counts + 1.0) / (counts.sum() + n_vocab)
    sif = a.sif / (a.sif + prob)
    start = pca.transform(vocab)
    start /= np.linalg.norm(start, axis=1, keepdims=True)
    start *= sif[:, None]
    start[specials] = 0.0
    log(f"token weights: min {sif.min():.4f} median {np.median(sif):.4f} max {sif.max():.4f};"
        f" {int((counts > 0).sum())} of {n_vocab} tokens occur in the training chunks")

    order = np.random.RandomState(a.seed).permutation(n_examples)
    n_hold = int(round(n_examples * a.holdout))
    hold, train = np.sort(order[:n_hold]), np.sort(order[n_hold:])
    hold_flat, hold_starts = bags(pieces, hold)
    hold_targets = torch.from_numpy(targets[hold]).float()
    start_t = torch.from_numpy(start).float()
    with torch.no_grad():
        base = cosine_to_targets(start_t, hold_flat, hold_starts, hold_targets).mean().item()
    log(f"held-out cosine to the teacher, model2vec start: {base:.4f}")

    if a.map_epochs > 0:
        # one linear map for every token, so that tokens the training chunks never show move with the others
        train_flat, train_starts = bags(pieces, train)
        summed = torch.nn.functional.embedding_bag(train_flat, start_t, train_starts, mode="sum")
        train_targets = torch.from_numpy(targets[train]).float()
        w = torch.eye(a.dim, requires_grad=True)
        opt = torch.optim.Adam([w], lr=1e-2)
        for epoch in range(1, a.map_epochs + 1):
            opt.zero_grad()
            loss = (1.0 - torch.nn.functional.cosine_similarity(summed @ w, train_targets, dim=1)).mean()
            loss.backward()
            opt.step()
        with torch.no_grad():
            start_t = start_t @ w.detach()
            base = cosine_to_targets(start_t, hold_flat, hold_starts, hold_targets).mean().item()
        log(f"held-out cosine after the shared linear map ({a.map_epochs} steps): {base:.4f}")

    weights = start_t.clone()
    best, best_epoch = base, 0
    if not a.no_refine:
        weights.requires_grad_(True)
        special_mask = torch.ones(n_vocab, 1)
        special_mask[specials] = 0.0
        opt = torch.optim.Adam([weights], lr=a.lr)
        best_weights = weights.detach().clone()
        rng = np.random.RandomState(a.seed + 1)
        for epoch in range(1, a.epochs + 1):
            perm = train[rng.permutation(len(train))]
            total = 0.0
            for b in range(0, len(perm), a.batch):
                rows = perm[b:b + a.batch]
                flat, starts = bags(pieces, rows)
                tgt = torch.from_numpy(targets[rows]).float()
                opt.zero_grad()
                cos = cosine_to_targets(weights, flat, starts, tgt)
                touched = torch.unique(flat)
                pull = ((weights[touched] - start_t[touched]) ** 2).sum()
                loss = (1.0 - cos).mean() + a.pull * pull
                loss.backward()
                weights.grad.mul_(special_mask)
                opt.step()
                total += loss.item() * len(rows)
            with torch.no_grad():
                held = cosine_to_targets(weights, hold_flat, hold_starts, hold_targets).mean().item()
            log(f"epoch {epoch}: train loss {total / len(train):.4f}, held-out cosine {held:.4f}")
            if held > best:
                best, best_epoch = held, epoch
                best_weights = weights.detach().clone()
            elif epoch - best_epoch >= 3:
                log(f"early stop: no held-out gain for 3 epochs after epoch {best_epoch}")
                break
        weights = best_weights
    final = weights.detach().numpy().astype(np.float32)

    # 4. int8 rows with a float32 scale each
    absmax = np.abs(final).max(axis=1)
    scales = np.where(absmax > 0, absmax / 127.0, 0.0).astype(np.float32)
    safe = np.where(scales > 0, scales, 1.0)
    quant = np.clip(np.rint(final / safe[:, None]), -127, 127).astype(np.int8)
    with torch.no_grad():
        deq = torch.from_numpy(quant.astype(np.float32) * scales[:, None])
        held_q = cosine_to_targets(deq, hold_flat, hold_starts, hold_targets).mean().item()
    log(f"held-out cosine: start {base:.4f}, refined {best:.4f} (epoch {best_epoch}), int8 {held_q:.4f}")

    name = a.name.encode("utf-8")
    body = bytearray()
    body += MAGIC
    body += struct.pack("<iii", VERSION, n_vocab, a.dim)
    body += struct.pack("<i", len(name)) + name
    body += struct.pack("<i", len(tokenizer_bytes)) + tokenizer_bytes
    body += scales.astype("<f4").tobytes()
    body += quant.tobytes()
    body += struct.pack("<I", zlib.crc32(body) & 0xFFFFFFFF)
    tmp = a.out + ".tmp"
    with open(tmp, "wb") as f:
        f.write(body)
    import os
    os.replace(tmp, a.out)
    import hashlib
    digest = hashlib.sha256(bytes(body)).hexdigest()
    peak_mb = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    log(f"wrote {a.out}: {len(body)} bytes, sha256 {digest}; {time.time() - t_start:.1f} s, peak RSS {peak_mb:.0f} MB")
    summary = {"chunks": int(n_chunks), "queries": int(len(query_vectors)), "held_out": int(n_hold), "word_pieces": int(len(ids)),
               "pca_variance_kept": float(pca.explained_variance_ratio_.sum()), "heldout_cosine_start": base,
               "heldout_cosine_refined": best, "best_epoch": best_epoch, "heldout_cosine_int8": held_q,
               "bytes": len(body), "sha256": digest, "seconds": round(time.time() - t_start, 1),
               "peak_rss_mb": round(peak_mb), "args": vars(a)}
    with open(f"{a.work}/distill-summary.json", "w") as f:
        json.dump(summary, f, indent=2)


if __name__ == "__main__":
    main()

#!/usr/bin/python3
"""Dense-only MRR@10 of static model files on BEIR folders, without Java: used to choose between distillation
variants before the real measurement (`neural-text eval`). Documents are embedded as title + "\\n" + text, not as
the eval's IndexedChunk, and the word pieces come from a plain re-implementation of BERT's uncased tokenizer, so the
figures only rank variants; the README's figures come from `neural-text eval`.

usage: offline_eval.py --tokenizer tokenizer.json --dataset DIR [--dataset DIR..] MODEL.ntsm [MODEL.ntsm..]
"""
import argparse
import json
import struct
import unicodedata

import numpy as np


class WordPiece:
    def __init__(self, tokenizer_json):
        with open(tokenizer_json, encoding="utf-8") as f:
            self.vocab = json.load(f)["model"]["vocab"]

    @staticmethod
    def _basic(text):
        text = unicodedata.normalize("NFD", text.lower())
        text = "".join(c for c in text if unicodedata.category(c) != "Mn")
        words, cur = [], []
        for c in text:
            cat = unicodedata.category(c)
            if c.isspace():
                if cur:
                    words.append("".join(cur))
                    cur = []
            elif cat.startswith("P") or (33 <= ord(c) <= 47) or (58 <= ord(c) <= 64) or (91 <= ord(c) <= 96) \
                    or (123 <= ord(c) <= 126):
                if cur:
                    words.append("".join(cur))
                    cur = []
                words.append(c)
            else:
                cur.append(c)
        if cur:
            words.append("".join(cur))
        return words

    def ids(self, text):
        out = []
        for w in self._basic(text):
            if len(w) > 100:
                out.append(self.vocab["[UNK]"])
                continue
            start, pieces = 0, []
            while start < len(w):
                end, piece = len(w), None
                while start < end:
                    sub = w[start:end] if start == 0 else "##" + w[start:end]
                    if sub in self.vocab:
                        piece = self.vocab[sub]
                        break
                    end -= 1
                if piece is None:
                    pieces = [self.vocab["[UNK]"]]
                    break
                pieces.append(piece)
                start = end
            out.extend(pieces)
        return out


def read_model(path):
    b = open(path, "rb").read()
    assert b[:8] == b"NTSTATIC"
    _, v, d = struct.unpack("<iii", b[8:20])
    o = 20
    n = struct.unpack("<i", b[o:o + 4])[0]
    o += 4 + n
    n = struct.unpack("<i", b[o:o + 4])[0]
    o += 4 + n
    scales = np.frombuffer(b[o:o + 4 * v], "<f4")
    o += 4 * v
    rows = np.frombuffer(b[o:o + v * d], "i1").reshape(v, d).astype(np.float32)
    return rows * scales[:, None]


def embed(table, id_lists):
    out = np.zeros((len(id_lists), table.shape[1]), dtype=np.float32)
    for i, ids in enumerate(id_lists):
        if ids:
            out[i] = table[ids].sum(axis=0)
    norms = np.linalg.norm(out, axis=1, keepdims=True)
    return out / np.where(norms > 0, norms, 1)


def load_dataset(folder, wp):
    docs, doc_ids = [], []
    corpus = f"{folder}/corpus.jsonl"
    with open(corpus, encoding="utf-8") as f:
        head = f.read(200)
    if not head.lstrip().startswith("{"):  # a symbolic link stored as a file holding the target's path
        corpus = f"{folder}/{head.strip()}"
    with open(corpus, encoding="utf-8") as f:
        for line in f:
            if line.strip():
                d = json.loads(line)
                doc_ids.append(d["_id"])
                docs.append(wp.ids(d.get("title", "") + "\n" + d.get("text", "")))
    queries = {}
    with open(f"{folder}/queries.jsonl", encoding="utf-8") as f:
        for line in f:
            if line.strip():
                q = json.loads(line)
                queries[q["_id"]] = q["text"]
    qrels = {}
    with open(f"{folder}/qrels/test.tsv", encoding="utf-8") as f:
        next(f)
        for line in f:
            qid, did, score = line.rstrip("\n").split("\t")
            if int(score) > 0:
                qrels.setdefault(qid, set()).add(did)
    qids = [q for q in queries if q in qrels]
    return doc_ids, docs, qids, [wp.ids(queries[q]) for q in qids], qrels


def mrr10(table, data):
    doc_ids, docs, qids, queries, qrels = data
    d = embed(table, docs)
    q = embed(table, queries)
    scores = q @ d.T
    total = 0.0
    for i, qid in enumerate(qids):
        top = np.argsort(-scores[i])[:10]
        for r, j in enumerate(top):
            if doc_ids[j] in qrels[qid]:
                total += 1.0 / (r + 1)
                break
    return total / len(qids)


def main():
    p = argparse.ArgumentParser()
    p.add_argument("--tokenizer", required=True)
    p.add_argument("--dataset", action="append", required=True)
    p.add_argument("models", nargs="+")
    a = p.parse_args()
    wp = WordPiece(a.tokenizer)
    data = {ds.rstrip("/").split("/")[-1]: load_dataset(ds, wp) for ds in a.dataset}
    for m in a.models:
        table = read_model(m)
        print(m, " ".join(f"{name} {mrr10(table, d):.3f}" for name, d in data.items()), flush=True)


if __name__ == "__main__":
    main()

#!/usr/bin/python3
"""Builds the tiny ONNX models and tokenizer used by neural-text-onnx's unit tests.

Run with Debian's python3-onnx (1.12; only onnx.helper and onnx.numpy_helper are used):
    /usr/bin/python3 neural-text-onnx/src/test/python/make_tiny_models.py
It writes into neural-text-onnx/src/test/resources/tiny/ (the files are committed; rerun only to change them).

Every model has the input/output signature of its real counterpart and a computation small enough to check by hand:

tokenizer.json   BERT WordPiece, lower-casing, 12 ids:
                 0 [PAD] 1 [UNK] 2 [CLS] 3 [SEP] 4 [MASK] 5 hello 6 world 7 java 8 string 9 ##s 10 code 11 search
                 single: [CLS] A [SEP]; pair: [CLS] A [SEP] B [SEP] with token type 1 for B and its [SEP].

embedder.onnx    inputs input_ids, attention_mask (NO token_type_ids); output last_hidden_state [b, s, 3]
                 = H[input_ids], H row i = (i, 1, -i) except [PAD] = (1000, 1000, 1000) so that any padding that
                 leaks into pooling shows.

splade.onnx      inputs input_ids, attention_mask, token_type_ids; output logits [b, s, 12]
                 = L[input_ids] + 100 * token_type_ids (every logit of a type-1 token would jump by 100).
                 L row i is -1 everywhere except: L[i][i] = e^2 - 1 (weight log(1 + x) = 2) for the word tokens 5..11,
                 L[i][(i + 1) mod 12] = e^1 - 1 (weight 1) for the word tokens, L[CLS][4] = e^0.5 - 1 (weight 0.5),
                 L[SEP] = -1 everywhere, L[PAD] = 50 everywhere (padding that leaks shows as weights of ~3.93).

splade-vocab13.onnx  like splade.onnx with 13 logits per token: vocabulary mismatch with the tokenizer.

cross-encoder.onnx   inputs input_ids, attention_mask, token_type_ids; output logits [b, 1]
                 = sum over tokens of mask * (A[input_ids] + 0.25 * token_type_ids),
                 A = 0 for specials, A[PAD] = 100, A[i] = (i - 4) / 10 for words 5..11 (hello 0.1 ... search 0.7).

no-input-ids.onnx    like embedder.onnx but its first input is called "ids".
rank2-output.onnx    inputs input_ids, attention_mask; output sentence_embedding [b, 3] (rank 2).
"""
import json
import math
import os

import numpy as np
import onnx
from onnx import TensorProto, helper, numpy_helper

OUT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "resources", "tiny")
VOCAB = ["[PAD]", "[UNK]", "[CLS]", "[SEP]", "[MASK]", "hello", "world", "java", "string", "##s", "code", "search"]
V = len(VOCAB)
OPSET = [helper.make_opsetid("", 12)]


def int_input(name):
    return helper.make_tensor_value_info(name, TensorProto.INT64, ["batch_size", "sequence_length"])


def save(graph, name):
    model = helper.make_model(graph, opset_imports=OPSET, producer_name="neural-text make_tiny_models.py")
    model.ir_version = 7
    onnx.checker.check_model(model)
    onnx.save(model, os.path.join(OUT, name))


def embedder(name="embedder.onnx", ids_name="input_ids"):
    h = np.array([[i, 1, -i] for i in range(V)], dtype=np.float32)
    h[0] = [1000, 1000, 1000]
    nodes = [helper.make_node("Gather", ["H", ids_name], ["last_hidden_state"], axis=0)]
    graph = helper.make_graph(nodes, "tiny_embedder", [int_input(ids_name), int_input("attention_mask")],
                              [helper.make_tensor_value_info("last_hidden_state", TensorProto.FLOAT,
                                                             ["batch_size", "sequence_length", 3])],
                              [numpy_helper.from_array(h, "H")])
    save(graph, name)


def rank2():
    h = np.array([[i, 1, -i] for i in range(V)], dtype=np.float32)
    nodes = [helper.make_node("Gather", ["H", "input_ids"], ["hidden"], axis=0),
             helper.make_node("ReduceMean", ["hidden"], ["sentence_embedding"], axes=[1], keepdims=0)]
    graph = helper.make_graph(nodes, "tiny_rank2", [int_input("input_ids"), int_input("attention_mask")],
                              [helper.make_tensor_value_info("sentence_embedding", TensorProto.FLOAT,
                                                             ["batch_size", 3])],
                              [numpy_helper.from_array(h, "H")])
    save(graph, "rank2-output.onnx")


def splade(vocab, name):
    logits = np.full((V, vocab), -1.0, dtype=np.float32)
    for i in range(5, V):
        logits[i][i] = math.exp(2.0) - 1
        logits[i][(i + 1) % V] = math.exp(1.0) - 1
    logits[2][4] = math.exp(0.5) - 1
    logits[0][:] = 50.0
    nodes = [helper.make_node("Gather", ["L", "input_ids"], ["token_logits"], axis=0),
             helper.make_node("Cast", ["token_type_ids"], ["types"], to=TensorProto.FLOAT),
             helper.make_node("Mul", ["types", "hundred"], ["type_shift"]),
             helper.make_node("Unsqueeze", ["type_shift"], ["type_shift3"], axes=[2]),
             helper.make_node("Add", ["token_logits", "type_shift3"], ["logits"])]
    graph = helper.make_graph(nodes, "tiny_splade",
                              [int_input("input_ids"), int_input("attention_mask"), int_input("token_type_ids")],
                              [helper.make_tensor_value_info("logits", TensorProto.FLOAT,
                                                             ["batch_size", "sequence_length", vocab])],
                              [numpy_helper.from_array(logits, "L"),
                               numpy_helper.from_array(np.array(100.0, dtype=np.float32), "hundred")])
    save(graph, name)


def cross_encoder():
    a = np.zeros(V, dtype=np.float32)
    a[0] = 100.0
    for i in range(5, V):
        a[i] = (i - 4) / 10.0
    nodes = [helper.make_node("Gather", ["A", "input_ids"], ["token_score"], axis=0),
             helper.make_node("Cast", ["token_type_ids"], ["types"], to=TensorProto.FLOAT),
             helper.make_node("Mul", ["types", "quarter"], ["type_score"]),
             helper.make_node("Add", ["token_score", "type_score"], ["score"]),
             helper.make_node("Cast", ["attention_mask"], ["mask"], to=TensorProto.FLOAT),
             helper.make_node("Mul", ["score", "mask"], ["masked"]),
             helper.make_node("ReduceSum", ["masked"], ["logits"], axes=[1], keepdims=1)]
    graph = helper.make_graph(nodes, "tiny_cross_encoder",
                              [int_input("input_ids"), int_input("attention_mask"), int_input("token_type_ids")],
                              [helper.make_tensor_value_info("logits", TensorProto.FLOAT, ["batch_size", 1])],
                              [numpy_helper.from_array(a, "A"),
                               numpy_helper.from_array(np.array(0.25, dtype=np.float32), "quarter")])
    save(graph, "cross-encoder.onnx")


def tokenizer():
    special = {"[PAD]", "[UNK]", "[CLS]", "[SEP]", "[MASK]"}
    tok = {
        "version": "1.0",
        "truncation": None,
        "padding": None,
        "added_tokens": [{"id": i, "content": t, "single_word": False, "lstrip": False, "rstrip": False,
                          "normalized": False, "special": True} for i, t in enumerate(VOCAB) if t in special],
        "normalizer": {"type": "BertNormalizer", "clean_text": True, "handle_chinese_chars": True,
                       "strip_accents": None, "lowercase": True},
        "pre_tokenizer": {"type": "BertPreTokenizer"},
        "post_processor": {
            "type": "TemplateProcessing",
            "single": [{"SpecialToken": {"id": "[CLS]", "type_id": 0}}, {"Sequence": {"id": "A", "type_id": 0}},
                       {"SpecialToken": {"id": "[SEP]", "type_id": 0}}],
            "pair": [{"SpecialToken": {"id": "[CLS]", "type_id": 0}}, {"Sequence": {"id": "A", "type_id": 0}},
                     {"SpecialToken": {"id": "[SEP]", "type_id": 0}}, {"Sequence": {"id": "B", "type_id": 1}},
                     {"SpecialToken": {"id": "[SEP]", "type_id": 1}}],
            "special_tokens": {"[CLS]": {"id": "[CLS]", "ids": [2], "tokens": ["[CLS]"]},
                               "[SEP]": {"id": "[SEP]", "ids": [3], "tokens": ["[SEP]"]}}},
        "decoder": {"type": "WordPiece", "prefix": "##", "cleanup": True},
        "model": {"type": "WordPiece", "unk_token": "[UNK]", "continuing_subword_prefix": "##",
                  "max_input_chars_per_word": 100, "vocab": {t: i for i, t in enumerate(VOCAB)}},
    }
    with open(os.path.join(OUT, "tokenizer.json"), "w", encoding="utf-8") as f:
        json.dump(tok, f, indent=1)
        f.write("\n")


if __name__ == "__main__":
    os.makedirs(OUT, exist_ok=True)
    tokenizer()
    embedder()
    embedder("no-input-ids.onnx", "ids")
    rank2()
    splade(V, "splade.onnx")
    splade(V + 1, "splade-vocab13.onnx")
    cross_encoder()
    print("wrote", sorted(os.listdir(OUT)))

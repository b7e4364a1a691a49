#!/usr/bin/env python3
"""A synthetic training run for the tune example: its validation loss is a known function of the
learning rate and the batch size, smallest at lr = 0.03 and batch = 32. Writes result.json.
"""
import argparse
import json
import math


def main():
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--lr", type=float, required=True)
    parser.add_argument("--batch", type=int, required=True)
    args = parser.parse_args()
    val_loss = (math.log10(args.lr) + 1.5) ** 2 + 0.1 * (math.log2(args.batch) - 5) ** 2 + 0.05
    with open("result.json", "w", encoding="utf-8") as f:
        json.dump({"lr": args.lr, "batch": args.batch, "val_loss": round(val_loss, 6)}, f)
    print(f"lr {args.lr} batch {args.batch}: val_loss {val_loss:.4f}")


if __name__ == "__main__":
    main()

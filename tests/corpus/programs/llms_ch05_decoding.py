# Source: rasbt/LLMs-from-scratch ch05/01_main-chapter-code/ch05.ipynb, section 5.3 "Decoding strategies to control
#   randomness" ("Build a Large Language Model (From Scratch)", Sebastian Raschka, Manning 2024; Apache 2.0
#   licence).
# Category: seeded random numbers — greedy argmax versus torch.multinomial sampling of a next token, counted with
#   torch.bincount over 1,000 draws, temperature scaling of softmax, top-k with torch.topk and torch.where(..., -inf)
#   and the cross-entropy of section 5.1 (probas, target_probas, log, mean, neg, flatten, perplexity)
# Adaptations:
#  - the notebook's cells in order, one script; a displayed value is print()ed; the plots go;
#  - section 5.1's logits come from its GPTModel on "every effort moves" / "I really like": here they are drawn with
#    torch.randn (seeded) of the same shape (2, 3, vocab) with a vocabulary of 9 words instead of 50257.
import torch

vocab = {
    "closer": 0,
    "every": 1,
    "effort": 2,
    "forward": 3,
    "inches": 4,
    "moves": 5,
    "pizza": 6,
    "toward": 7,
    "you": 8,
}

inverse_vocab = {v: k for k, v in vocab.items()}

# Suppose input is "every effort moves you", and the LLM
# returns the following logits for the next token:
next_token_logits = torch.tensor(
    [4.51, 0.89, -1.90, 6.75, 1.63, -1.62, -1.89, 6.28, 1.79]
)

probas = torch.softmax(next_token_logits, dim=0)
next_token_id = torch.argmax(probas).item()

# The next generated token is then as follows:
print(inverse_vocab[next_token_id])

torch.manual_seed(123)
next_token_id = torch.multinomial(probas, num_samples=1).item()
print(inverse_vocab[next_token_id])

def print_sampled_tokens(probas):
    torch.manual_seed(123) # Manual seed for reproducibility
    sample = [torch.multinomial(probas, num_samples=1).item() for i in range(1_000)]
    sampled_ids = torch.bincount(torch.tensor(sample), minlength=len(probas))
    for i, freq in enumerate(sampled_ids):
        print(f"{freq} x {inverse_vocab[i]}")

print_sampled_tokens(probas)

def softmax_with_temperature(logits, temperature):
    scaled_logits = logits / temperature
    return torch.softmax(scaled_logits, dim=0)

# Temperature values
temperatures = [1, 0.1, 5]  # Original, higher confidence, and lower confidence

# Calculate scaled probabilities
scaled_probas = [softmax_with_temperature(next_token_logits, T) for T in temperatures]
for T, p in zip(temperatures, scaled_probas):
    print(f"Temperature = {T}:", p)

print_sampled_tokens(scaled_probas[1])

print_sampled_tokens(scaled_probas[2])

top_k = 3
top_logits, top_pos = torch.topk(next_token_logits, top_k)

print("Top logits:", top_logits)
print("Top positions:", top_pos)

new_logits = torch.where(
    condition=next_token_logits < top_logits[-1],
    input=torch.tensor(float("-inf")),
    other=next_token_logits
)

print(new_logits)

new_logits = torch.full_like( # create tensor containing -inf values
   next_token_logits, -torch.inf
)
new_logits[top_pos] = next_token_logits[top_pos] # copy top k values into the -inf tensor

topk_probas = torch.softmax(new_logits, dim=0)
print(topk_probas)

# 5.1.2 Calculating the text generation loss
torch.manual_seed(123)
inputs = torch.tensor([[1, 2, 5],   # ["every effort moves",
                       [0, 6, 4]])  #  "I really like"]

targets = torch.tensor([[2, 5, 8],  # [" effort moves you",
                        [6, 4, 3]])  #  " really like chocolate"]

logits = torch.randn(2, 3, len(vocab))

probas = torch.softmax(logits, dim=-1) # Probability of each token in vocabulary
print(probas.shape) # Shape: (batch_size, num_tokens, vocab_size)

token_ids = torch.argmax(probas, dim=-1, keepdim=True)
print("Token IDs:\n", token_ids)

text_idx = 0
target_probas_1 = probas[text_idx, [0, 1, 2], targets[text_idx]]
print("Text 1:", target_probas_1)

text_idx = 1
target_probas_2 = probas[text_idx, [0, 1, 2], targets[text_idx]]
print("Text 2:", target_probas_2)

# Compute logarithm of all token probabilities
log_probas = torch.log(torch.cat((target_probas_1, target_probas_2)))
print(log_probas)

# Calculate the average probability for each token
avg_log_probas = torch.mean(log_probas)
print(avg_log_probas)

neg_avg_log_probas = avg_log_probas * -1
print(neg_avg_log_probas)

# Logits have shape (batch_size, num_tokens, vocab_size)
print("Logits shape:", logits.shape)

# Targets have shape (batch_size, num_tokens)
print("Targets shape:", targets.shape)

logits_flat = logits.flatten(0, 1)
targets_flat = targets.flatten()

print("Flattened logits:", logits_flat.shape)
print("Flattened targets:", targets_flat.shape)

loss = torch.nn.functional.cross_entropy(logits_flat, targets_flat)
print(loss)

perplexity = torch.exp(loss)
print(perplexity)

"""torch.einsum, decomposed as ATen decomposes it (at::native::einsum and sumproduct_pair in Linear.cpp), so
that its graph is torch's node for node: diagonals for repeated subscripts, unsqueezes and a permute that align
every operand, then left to right, pairwise, sums of dims that only one side has and a bmm of the permuted and
reshaped pair (a mul when no dim is summed), the right one first where its dims come first in the output."""
from .table import Spelling, composite, is_tensor

_ELLIPSIS = "..."
_LETTERS = 26


def _index(label):
    """ATen's subscript order: A–Z, then a–z."""
    return ord(label) - ord("A") if label.isupper() else ord(label) - ord("a") + _LETTERS


def _parse_operands(lhs, count):
    labels, current, seen_ellipsis, i = [[] for _ in range(count)], 0, False, 0
    while i < len(lhs):
        c = lhs[i]
        if c == ".":
            if seen_ellipsis:
                raise RuntimeError(f"einsum(): found '.' for operand {current} for which an ellipsis was already "
                                   f"found")
            if not (i + 2 < len(lhs) and lhs[i + 1] == "." and lhs[i + 2] == "."):
                raise RuntimeError(f"einsum(): found '.' for operand {current} that is not part of any ellipsis")
            labels[current].append(_ELLIPSIS)
            seen_ellipsis, i = True, i + 2
        elif c == ",":
            current += 1
            if current >= count:
                raise RuntimeError("einsum(): fewer operands were provided than specified in the equation")
            seen_ellipsis = False
        elif c != " ":
            if not (c.isascii() and c.isalpha()):
                raise RuntimeError(f"einsum(): invalid subscript given at index {i} in the equation string, "
                                   f"subscripts must be in [a-zA-Z]")
            labels[current].append(_index(c))
        i += 1
    if current != count - 1:
        raise RuntimeError("einsum(): more operands were provided than specified in the equation")
    return labels


def _parse_output(rhs, offset, count, ell_num_dim):
    """label -> its place in the output, the ellipsis' first place, and whether the output has one."""
    place, ell_index, ell_in_output, i, position = {}, 0, False, 0, 0
    while i < len(rhs):
        c = rhs[i]
        if c == ".":
            if ell_in_output:
                raise RuntimeError("einsum(): found '.' for output but an ellipsis (...) was already found")
            if not (i + 2 < len(rhs) and rhs[i + 1] == "." and rhs[i + 2] == "."):
                raise RuntimeError("einsum(): found '.' for output that is not part of any ellipsis (...)")
            ell_index, ell_in_output, i = position, True, i + 2
            position += ell_num_dim
        elif c != " ":
            if not (c.isascii() and c.isalpha()):
                raise RuntimeError(f"einsum(): invalid subscript given at index {offset + i} in the equation "
                                   f"string, subscripts must be in [a-zA-Z]")
            s = _index(c)
            if not count[s] or s in place:
                raise RuntimeError(f"einsum(): output subscript {c} " + (
                    "appears more than once in the output" if s in place
                    else "does not appear in the equation for any input operand"))
            place[s] = position
            position += 1
        i += 1
    return place, ell_index, ell_in_output, position


def _letter(s):
    return chr(s + ord("A")) if s < _LETTERS else chr(s - _LETTERS + ord("a"))


def _aligned(i, op, labels, place, ell_index, ell_num_dim, width, sizes, ell_sizes, counts):
    """Operand i with its repeated subscripts' diagonals taken and its dims unsqueezed and permuted into the
    common order (the output's dims, then the summed ones); counts how many operands have each dim not 1."""
    permutation, dim = [-1] * width, 0
    for s in labels:
        if s == _ELLIPSIS:
            covered = op.dim() - (len(labels) - 1)
            for j in range(ell_num_dim - covered, ell_num_dim):
                size = op.shape[dim]
                if size != 1:
                    if ell_sizes[j] not in (1, size):
                        raise RuntimeError(
                            f"einsum(): dimension {dim} covered by ellipsis in operand {i}has size {size} which "
                            f"does not broadcast with previously seen ellipsis with size {ell_sizes[j]} for the "
                            f"respective dimension")
                    ell_sizes[j] = size
                    counts[ell_index + j] += 1
                permutation[ell_index + j] = dim
                dim += 1
        elif permutation[place[s]] == -1:
            size = op.shape[dim]
            if size != 1:
                if sizes.get(s, 1) not in (1, size):
                    raise RuntimeError(f"einsum(): subscript {_letter(s)} has size {size} for operand {i} which "
                                       f"does not broadcast with previously seen size {sizes[s]}")
                sizes[s] = size
                counts[place[s]] += 1
            permutation[place[s]] = dim
            dim += 1
        else:
            previous = permutation[place[s]]
            if op.shape[dim] != op.shape[previous]:
                raise RuntimeError(f"einsum(): subscript {_letter(s)} is repeated for operand {i} but the sizes "
                                   f"don't match, {op.shape[dim]} != {op.shape[previous]}")
            op = op.diagonal(0, previous, dim).movedim(-1, previous)
    for k, val in enumerate(permutation):
        if val == -1:
            op = op.unsqueeze(dim)
            permutation[k] = dim
            dim += 1
    return op.permute(permutation)


def _sumproduct_pair(left, right, sum_dims):
    """(left * right) summed over sum_dims (kept as 1s), by a bmm of the two permuted and reshaped."""
    if not sum_dims:
        return left * right
    lro, lo, ro = [], [], []
    lro_size = lo_size = ro_size = sum_size = 1
    for i in range(left.dim()):
        sl, sr = left.shape[i] != 1, right.shape[i] != 1
        if i in sum_dims:
            if sl and sr:
                if left.shape[i] != right.shape[i]:
                    raise RuntimeError("non-broadcast dimensions must match")
                sum_size *= left.shape[i]
            elif sl:
                left = left.sum(i, True)
            elif sr:
                right = right.sum(i, True)
        elif sl and sr:
            if left.shape[i] != right.shape[i]:
                raise RuntimeError("non-broadcast dimensions must match")
            lro.append(i)
            lro_size *= left.shape[i]
        elif sl:
            lo.append(i)
            lo_size *= left.shape[i]
        else:
            ro.append(i)
            ro_size *= right.shape[i]
    if lo and ro and ro[-1] < lo[0]:  # the right operand's dims come first in the output: bmm them first
        left, right, lo, ro, lo_size, ro_size = right, left, ro, lo, ro_size, lo_size
    out_size = [left.shape[d] for d in lro + lo] + [1] * len(sum_dims) + [right.shape[d] for d in ro]
    order = lro + lo + sum_dims + ro
    left = left.permute(order).reshape(lro_size, lo_size, sum_size)
    right = right.permute(lro + sum_dims + ro + lo).reshape(lro_size, sum_size, ro_size)
    back = [0] * len(order)
    for k, d in enumerate(order):
        back[d] = k
    return left.bmm(right).view(out_size).permute(back)


def _equation(args):
    """torch.functional.einsum's forms: (equation, *operands), (equation, [operands]) and the sublist form
    (op, [0, 1], op, [1, 2], [0, 2])."""
    usage = ("einsum(): must specify the equation string and at least one operand, or at least one operand and "
             "its subscripts list")
    if len(args) < 2:
        raise ValueError(usage)
    if not is_tensor(args[0]):
        equation, operands = args[0], args[1:]
        if len(operands) == 1 and isinstance(operands[0], (list, tuple)):
            return _equation((equation, *operands[0]))
        return equation, operands

    def subscripts(sublist):
        out = ""
        for n in sublist:
            if n is Ellipsis:
                out += "..."
            elif 0 <= n < 2 * _LETTERS:
                out += chr(ord("A") + n) if n < _LETTERS else chr(ord("a") + n - _LETTERS)
            else:
                raise ValueError("einsum(): subscript in subscript list is not within the valid range [0, 52)")
        return out

    equation = ",".join(subscripts(sub) for sub in args[1::2])
    if len(args) % 2 == 1:
        equation += "->" + subscripts(args[-1])
        return equation, args[:-1:2]
    return equation, args[::2]


@composite(Spelling(function="einsum", out=False))
def einsum(*args):
    equation, operands = _equation(args)
    if not isinstance(equation, str):
        raise TypeError(f"einsum(): argument 'equation' (position 1) must be str, not {type(equation).__name__}")
    for i, op in enumerate(operands):
        if not is_tensor(op):
            raise TypeError(f"expected Tensor as element {i} in argument 1, but got {type(op).__name__}")
    if not operands:
        raise RuntimeError("einsum(): must provide at least one operand")
    arrow = equation.find("->")
    lhs = equation if arrow < 0 else equation[:arrow]
    labels = _parse_operands(lhs, len(operands))
    count, ell_num_dim = [0] * (2 * _LETTERS), 0
    for i, (op, subs) in enumerate(zip(operands, labels)):
        named = [s for s in subs if s != _ELLIPSIS]
        for s in named:
            count[s] += 1
        has_ellipsis = len(named) < len(subs)
        if has_ellipsis:
            ell_num_dim = max(ell_num_dim, op.dim() - len(named))
        if (len(named) > op.dim()) if has_ellipsis else (len(named) != op.dim()):
            raise RuntimeError(
                f"einsum(): the number of subscripts in the equation ({len(named)}) " + (
                    f"is more than the number of dimensions ({op.dim()}) for operand {i}" if has_ellipsis else
                    f"does not match the number of dimensions ({op.dim()}) for operand {i} and no ellipsis was given"))
    if arrow < 0:  # the implicit output: the ellipsis, then the subscripts seen once, in order
        place, ell_index, ell_in_output, width = {}, 0, True, ell_num_dim
        for s in range(2 * _LETTERS):
            if count[s] == 1:
                place[s] = width
                width += 1
    else:
        place, ell_index, ell_in_output, width = _parse_output(equation[arrow + 2:], len(lhs) + 2, count,
                                                               ell_num_dim)
    out_num_dim = width
    if not ell_in_output:
        ell_index, width = width, width + ell_num_dim
    for s in range(2 * _LETTERS):
        if count[s] and s not in place:
            place[s] = width
            width += 1
    sizes, ell_sizes, counts = {}, [1] * ell_num_dim, [0] * width
    ops = [_aligned(i, op, subs, place, ell_index, ell_num_dim, width, sizes, ell_sizes, counts)
           for i, (op, subs) in enumerate(zip(operands, labels))]
    while len(ops) > 1:
        a, b = ops.pop(0), ops.pop(0)
        sum_dims, a_sum, b_sum = [], [], []
        for d in range(out_num_dim, width):
            if a.shape[d] != 1 and b.shape[d] != 1:
                if a.shape[d] != b.shape[d]:
                    raise RuntimeError("non-broadcast dimensions must match")
                counts[d] -= 1
                if counts[d] == 1:
                    sum_dims.append(d)
                    counts[d] = 0
            elif counts[d] == 1:
                if a.shape[d] != 1:
                    a_sum.append(d)
                    counts[d] = 0
                elif b.shape[d] != 1:
                    b_sum.append(d)
                    counts[d] = 0
        if a_sum:
            a = a.sum(tuple(a_sum), True)
        if b_sum:
            b = b.sum(tuple(b_sum), True)
        ops.insert(0, _sumproduct_pair(a, b, sum_dims))
    result = ops[0]
    if width > out_num_dim:
        if len(operands) > 1:
            return result.view(result.shape[:out_num_dim])
        return result.sum(tuple(range(out_num_dim, width)))
    return result

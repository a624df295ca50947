"""The orders torch's CPU kernels leave equal keys in: libstdc++'s std::sort, std::nth_element and
std::partial_sort, and TH's quickselect (Sedgewick's), step for step. Each works in place on a list of
(key, index) pairs and compares keys only, with the kernel's own `less`; where no keys tie, any correct sort gives
the same order, so callers use these only for rows with ties."""

_THRESHOLD = 16  # libstdc++'s _S_threshold


def _lg(n):
    return n.bit_length() - 1


def sort(a, first, last, less):
    """std::sort: introsort (median-of-three pivot, heapsort past 2·lg n levels), then insertion sort."""
    if first != last:
        _introsort_loop(a, first, last, 2 * _lg(last - first), less)
        _final_insertion_sort(a, first, last, less)


def nth_element(a, first, nth, last, less):
    if first == last or nth == last:
        return
    depth = 2 * _lg(last - first)
    while last - first > 3:
        if depth == 0:
            _heap_select(a, first, nth + 1, last, less)
            a[first], a[nth] = a[nth], a[first]
            return
        depth -= 1
        cut = _unguarded_partition_pivot(a, first, last, less)
        if cut <= nth:
            first = cut
        else:
            last = cut
    _insertion_sort(a, first, last, less)


def partial_sort(a, first, middle, last, less):
    _heap_select(a, first, middle, last, less)
    _sort_heap(a, first, middle, less)


def quick_select(a, k, greater):
    """TH's quick_select_template (kthvalue): a[k] is the k-th smallest (0-based) under `greater`."""
    lo, hi = 0, len(a) - 1
    while True:
        if hi <= lo:
            return
        if hi == lo + 1:
            if greater(a[lo], a[hi]):
                a[lo], a[hi] = a[hi], a[lo]
            return
        p = (lo + hi) >> 1
        a[p], a[lo + 1] = a[lo + 1], a[p]
        if greater(a[lo + 1], a[hi]):
            a[lo + 1], a[hi] = a[hi], a[lo + 1]
        if greater(a[lo], a[hi]):
            a[lo], a[hi] = a[hi], a[lo]
        if greater(a[lo + 1], a[lo]):
            a[lo + 1], a[lo] = a[lo], a[lo + 1]
        i, j = lo + 1, hi
        pivot = a[lo]
        while True:
            i += 1
            while greater(pivot, a[i]):
                i += 1
            j -= 1
            while greater(a[j], pivot):
                j -= 1
            if j < i:
                break
            a[i], a[j] = a[j], a[i]
        a[lo], a[j] = a[j], a[lo]
        if j <= k:
            lo = i
        if j >= k:
            hi = j - 1


def _introsort_loop(a, first, last, depth, less):
    while last - first > _THRESHOLD:
        if depth == 0:
            partial_sort(a, first, last, last, less)
            return
        depth -= 1
        cut = _unguarded_partition_pivot(a, first, last, less)
        _introsort_loop(a, cut, last, depth, less)
        last = cut


def _unguarded_partition_pivot(a, first, last, less):
    mid = first + (last - first) // 2
    _move_median_to_first(a, first, first + 1, mid, last - 1, less)
    return _unguarded_partition(a, first + 1, last, a[first], less)


def _move_median_to_first(a, result, x, y, z, less):
    if less(a[x], a[y]):
        if less(a[y], a[z]):
            pick = y
        elif less(a[x], a[z]):
            pick = z
        else:
            pick = x
    elif less(a[x], a[z]):
        pick = x
    elif less(a[y], a[z]):
        pick = z
    else:
        pick = y
    a[result], a[pick] = a[pick], a[result]


def _unguarded_partition(a, first, last, pivot, less):
    while True:
        while less(a[first], pivot):
            first += 1
        last -= 1
        while less(pivot, a[last]):
            last -= 1
        if not first < last:
            return first
        a[first], a[last] = a[last], a[first]
        first += 1


def _insertion_sort(a, first, last, less):
    if first == last:
        return
    for i in range(first + 1, last):
        if less(a[i], a[first]):
            value = a[i]
            a[first + 1:i + 1] = a[first:i]
            a[first] = value
        else:
            _unguarded_linear_insert(a, i, less)


def _unguarded_linear_insert(a, last, less):
    value = a[last]
    before = last - 1
    while less(value, a[before]):
        a[last] = a[before]
        last = before
        before -= 1
    a[last] = value


def _final_insertion_sort(a, first, last, less):
    if last - first > _THRESHOLD:
        _insertion_sort(a, first, first + _THRESHOLD, less)
        for i in range(first + _THRESHOLD, last):
            _unguarded_linear_insert(a, i, less)
    else:
        _insertion_sort(a, first, last, less)


def _adjust_heap(a, first, hole, length, value, less):
    top = hole
    child = hole
    while child < (length - 1) // 2:
        child = 2 * (child + 1)
        if less(a[first + child], a[first + child - 1]):
            child -= 1
        a[first + hole] = a[first + child]
        hole = child
    if length & 1 == 0 and child == (length - 2) // 2:
        child = 2 * (child + 1)
        a[first + hole] = a[first + child - 1]
        hole = child - 1
    parent = (hole - 1) // 2
    while hole > top and less(a[first + parent], value):
        a[first + hole] = a[first + parent]
        hole = parent
        parent = (hole - 1) // 2
    a[first + hole] = value


def _make_heap(a, first, last, less):
    length = last - first
    if length < 2:
        return
    parent = (length - 2) // 2
    while True:
        _adjust_heap(a, first, parent, length, a[first + parent], less)
        if parent == 0:
            return
        parent -= 1


def _pop_heap(a, first, last, result, less):
    value = a[result]
    a[result] = a[first]
    _adjust_heap(a, first, 0, last - first, value, less)


def _heap_select(a, first, middle, last, less):
    _make_heap(a, first, middle, less)
    for i in range(middle, last):
        if less(a[i], a[first]):
            _pop_heap(a, first, middle, i, less)


def _sort_heap(a, first, last, less):
    while last - first > 1:
        last -= 1
        _pop_heap(a, first, last, last, less)

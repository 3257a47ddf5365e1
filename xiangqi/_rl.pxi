# The compiled RL boundary, included into xiangqi/_core.pyx (one extension, one copy of
# the kernel: the RL code calls the same inlined rooms as Board, compiled once): batch
# encoders, legal-action masks and the vectorised environment's state, over
# caller-visible buffers (xiangqi.rl wraps them in NumPy).
#
# The C routines live in xiangqi/core/rl.pxd (the action space, plane layout and
# game-end judge are documented there). Functions here check what Python hands
# them, gather board states with the GIL held, then work without it.

from cpython.buffer cimport PyBUF_FORMAT, PyBUF_WRITABLE
from libc.stdlib cimport calloc, free, malloc
from libc.string cimport memcpy, memset

from xiangqi.core.movegen cimport generate_legal_moves, in_check
from xiangqi.core.history cimport PlyRecord, push_ply
from xiangqi.core.judge cimport count_occurrences
from xiangqi.core.state cimport MAX_MOVES, BoardState, unmake_move
from xiangqi.core.zobrist cimport key_from_scratch, side_key
from xiangqi.core.rl cimport (
    ACTION_CODE,
    BASE_PLANES,
    MIRROR,
    MOVER_LOSES,
    MOVER_WINS,
    NUM_ACTIONS,
    ONGOING,
    PIECE_PLANES,
    PLANE_SIZE,
    TRUNCATED,
    action_to_move,
    init_rl_tables,
    judge_end,
    legal_actions,
    mark_legal_actions,
    splitmix_next,
    write_counter_planes,
    move_piece_planes,
    write_piece_planes,
)

from xiangqi.errors import ConcurrentUseError

if init_rl_tables() != NUM_ACTIONS:
    raise ImportError("the action table does not hold 2086 actions")


def action_codes():
    """Every action's view squares as from_square * 90 + to_square, in action order."""
    return [ACTION_CODE[a] for a in range(NUM_ACTIONS)]


def mirror_codes():
    """Action index -> the action of the left-right mirrored move."""
    return [MIRROR[a] for a in range(NUM_ACTIONS)]


cdef void gather(Board board, int history, BoardState* state, int* records, int* count,
                 int* reps) noexcept:
    # Copy what encode_one needs from a board, with the GIL held: its state, its last
    # `history` moves (newest first, mv | cap << 16) and its repetition count, from the
    # game-end history (plies[0] the root, plies[nply] now).
    # Only the moves since the last null move (Board.push_null): a null entry is no
    # move to unmake, and the rulings look no further back either.
    cdef int j, n = board.nply - board.null_base
    cdef const PlyRecord* plies = board.plies + board.null_base
    state[0] = board.st
    count[0] = history if history < n else n
    for j in range(count[0]):
        records[j] = plies[n - j].move | (plies[n - j].captured << 16)
    reps[0] = count_occurrences(plies, n) - 1


cdef void encode_one(BoardState* b, const int* records, int count, int history,
                     int clock, int reps, int view, unsigned char* out) noexcept nogil:
    # Planes of one position (see core/rl.pxd), records newest first: mv | cap << 16;
    # seen from the side to move, or from side `view` when that is 0 or 1.
    cdef int mover = b.side if view < 0 else view, j, rec
    write_piece_planes(b, mover, out)
    for j in range(history):
        memset(out + (BASE_PLANES + PIECE_PLANES * j) * PLANE_SIZE, 0, PIECE_PLANES * PLANE_SIZE)
    for j in range(count):
        rec = records[j]
        unmake_move(b, rec & 0xffff, rec >> 16)
        write_piece_planes(b, mover, out + (BASE_PLANES + PIECE_PLANES * j) * PLANE_SIZE)
    write_counter_planes(out, reps, clock)


def encode_batch(list boards not None, const long long[::1] clocks not None, int history,
                 unsigned char[:, ::1] out not None, int view=-1):
    """Write the planes of each Board into out[i] (uint8, 16 + 14 * history planes of 90).

    clocks[i] is board i's no-capture clock in plies; view -1 is the side to move's
    view, 0 Red's, 1 Black's. Runs without the GIL on copies.
    """
    cdef tuple held = tuple(boards)
    cdef Py_ssize_t count = len(held), i
    cdef Py_ssize_t width = (BASE_PLANES + PIECE_PLANES * history) * PLANE_SIZE
    cdef BoardState* states
    cdef int* counts
    cdef int* reps
    cdef int* recs
    if not 0 <= history <= 64:
        raise ValueError(f"history must be in 0..64, got {history}")
    if not -1 <= view <= 1:
        raise ValueError(f"view must be -1, 0 or 1, got {view}")
    if out.shape[0] != count or out.shape[1] != width or clocks.shape[0] != count:
        raise ValueError(f"buffers do not fit {count} positions of {width} bytes")
    for i in range(count):
        if not isinstance(held[i], Board):
            raise TypeError(f"boards[{i}] is not a Board")
    states = <BoardState*>malloc(sizeof(BoardState) * (count + 1))
    counts = <int*>malloc(sizeof(int) * (count + 1))
    reps = <int*>malloc(sizeof(int) * (count + 1))
    recs = <int*>malloc(sizeof(int) * (count * history + 1))
    try:
        if states == NULL or counts == NULL or reps == NULL or recs == NULL:
            raise MemoryError()
        for i in range(count):
            gather(<Board>held[i], history, &states[i], recs + i * history, &counts[i], &reps[i])
        with nogil:
            for i in range(count):
                encode_one(&states[i], recs + i * history, counts[i], history,
                           <int>min(clocks[i], 255), reps[i], view, &out[i, 0])
    finally:
        free(states)
        free(counts)
        free(reps)
        free(recs)


def legal_mask_batch(list boards not None, unsigned char[:, ::1] out not None):
    """Write each Board's legal-action mask (0/1 bytes, NUM_ACTIONS wide) into out[i]."""
    cdef tuple held = tuple(boards)
    cdef Py_ssize_t count = len(held), i
    cdef int j, n
    cdef short actions[MAX_MOVES]
    cdef BoardState* states
    if out.shape[0] != count or out.shape[1] != NUM_ACTIONS:
        raise ValueError(f"mask buffer must be ({count}, {NUM_ACTIONS})")
    for i in range(count):
        if not isinstance(held[i], Board):
            raise TypeError(f"boards[{i}] is not a Board")
    states = <BoardState*>malloc(sizeof(BoardState) * (count + 1))
    if states == NULL:
        raise MemoryError()
    try:
        for i in range(count):
            states[i] = (<Board>held[i]).st
        with nogil:
            for i in range(count):
                memset(&out[i, 0], 0, NUM_ACTIONS)
                n = legal_actions(&states[i], actions)
                for j in range(n):
                    out[i, actions[j]] = 1
    finally:
        free(states)


cdef inline int occurrences(const PlyRecord* plies, const unsigned int* tags, int lane,
                            int n) noexcept nogil:
    # judge.pxd's count_occurrences(plies, n): how often plies[n].key occurs among plies
    # n - clock .. n at even distance (itself included; 2 plies back cannot match).
    # tags holds the low 32 bits of each ply's key in two lanes by ply parity (ply j at
    # tags[(j & 1) * lane + j // 2]), so the scan reads 4 contiguous bytes a candidate,
    # and only a matching tag costs a look at the full key. A specialised copy kept for
    # speed: with count_occurrences(history, n) instead (and no tags), VectorEnv(1024)
    # step + sample_legal ran 2.5-3% slower in 4 interleaved runs (600 steps, best of 3,
    # CPU time: 1.042/1.009, 1.056/1.033, 1.268/1.241, 1.250/1.217 M steps/s) though
    # it executed 0.3% fewer instructions (3,925 against 3,937 per step,
    # benchmarks/rl_callgrind.sh): the 32-byte PlyRecord stride costs cache misses
    # across 1,024 games' histories, not instructions. Same result as count_occurrences;
    # tests/test_rl_env.py replays VectorEnv against Position, whose count is the reference.
    cdef unsigned long long key = plies[n].key
    cdef unsigned int tag = <unsigned int>key
    cdef long long back = plies[n].clock if plies[n].clock < n else n
    cdef const unsigned int* same = tags + (n & 1) * lane
    cdef int top = n >> 1, j = top - 2, stop = top - <int>(back >> 1), seen = 1
    while j >= stop:
        if same[j] == tag and plies[2 * j + (n & 1)].key == key:
            seen += 1
        j -= 1
    return seen


cdef inline unsigned long long next_random(unsigned long long* state) noexcept nogil:
    # xorshift64*: one environment's private random stream for sample_legal.
    cdef unsigned long long x = state[0]
    x ^= x >> 12
    x ^= x << 25
    x ^= x >> 27
    state[0] = x
    return x * 0x2545F4914F6CDD1DULL


cdef class VectorCore:
    """State of num_envs games stepped together; xiangqi.rl.VectorEnv is the public face.

    It owns every buffer it reads or writes: the observations (N, 16 * 90) uint8, masks
    (N, NUM_ACTIONS) uint8, rewards (N,) float32, terminations and truncations (N,)
    uint8 are exported read-only by outputs() (a caller cannot make them writeable,
    so the incremental mask and plane updates never see an edited buffer), the final
    observations and masks of games that ended (same shapes) by finals(), and step()
    copies the caller's actions into its own array before checking them and plays
    only that copy. One call at a time: a second call while a step or reset runs
    (from another thread; the step runs without the GIL) raises ConcurrentUseError.
    """

    cdef int num_envs, max_plies
    cdef bint chinese           # judge by the Chinese rules (core/chinese.pxd), not the Asian
    cdef bint busy              # a call is running (set and tested with the GIL held)
    cdef BoardState start
    cdef BoardState* states
    cdef int* plies             # plies played in each game
    cdef PlyRecord* history     # [i * (max_plies + 1) + j]: game i's history, as Board's
    cdef PlyRecord start_ply    # history entry of the start position
    cdef int* occurrences       # count_occurrences of each game's current position
    # The low 32 bits of history's keys, per game two lanes of `lane` entries by ply
    # parity (see occurrences()): the scan reads 4 bytes a candidate, not 32.
    cdef unsigned int* tags
    cdef int lane
    cdef unsigned long long* rng    # one random stream per environment
    cdef short* legal           # [i * MAX_MOVES + j]: legal actions of game i
    cdef int* legal_count
    cdef unsigned short* placed     # [32 * i + j]: offsets of the ones in game i's piece planes
    cdef int* placed_count
    cdef short* actions         # step()'s private copy of the caller's actions
    cdef long long rejected     # the copied value of the action step() refused last
    # The outputs, exported read-only by outputs().
    cdef unsigned char* obs
    cdef unsigned char* mask
    cdef float* rewards
    cdef unsigned char* terminations
    cdef unsigned char* truncations
    # Row i: the planes and mask of the last position of the game that ended in env i
    # most recently (written by step() before the restart; zeros after reset()). A row
    # is fresh only where the last step's termination or truncation flag is set.
    cdef unsigned char* final_obs
    cdef unsigned char* final_mask

    def __cinit__(self):
        self.busy = 0
        self.states = NULL
        self.plies = NULL
        self.history = NULL
        self.occurrences = NULL
        self.tags = NULL
        self.rng = NULL
        self.legal = NULL
        self.legal_count = NULL
        self.placed = NULL
        self.placed_count = NULL
        self.actions = NULL
        self.obs = NULL
        self.mask = NULL
        self.rewards = NULL
        self.terminations = NULL
        self.truncations = NULL
        self.final_obs = NULL
        self.final_mask = NULL

    def __init__(self, int num_envs, int max_plies, Board start not None, bint chinese=False):
        if self.states != NULL:
            raise RuntimeError("VectorCore is already initialised")
        if not 1 <= num_envs <= 1 << 24 or not 1 <= max_plies <= 1 << 24:
            raise ValueError("num_envs and max_plies must be in 1..2**24")
        self.num_envs = num_envs
        self.max_plies = max_plies
        self.chinese = chinese
        self.start = start.st
        self.start_ply.key = key_from_scratch(self.start.squares, self.start.side)
        self.start_ply.move = 0
        self.start_ply.captured = 0
        # The start's halfmove clock, as Position keeps it (GymEnv, the PettingZoo env):
        # one fen plays one game whatever the entry point.
        self.start_ply.clock = start.plies[start.nply].clock
        self.start_ply.check = in_check(&self.start, self.start.side)
        self.states = <BoardState*>malloc(sizeof(BoardState) * num_envs)
        self.plies = <int*>malloc(sizeof(int) * num_envs)
        self.history = <PlyRecord*>malloc(sizeof(PlyRecord) * num_envs * (<size_t>max_plies + 1))
        self.occurrences = <int*>malloc(sizeof(int) * num_envs)
        self.lane = max_plies // 2 + 1
        self.tags = <unsigned int*>malloc(sizeof(unsigned int) * num_envs * 2 * <size_t>self.lane)
        self.rng = <unsigned long long*>malloc(sizeof(unsigned long long) * num_envs)
        self.legal = <short*>malloc(sizeof(short) * num_envs * MAX_MOVES)
        self.legal_count = <int*>calloc_ints(num_envs)
        self.placed = <unsigned short*>malloc(sizeof(unsigned short) * 32 * num_envs)
        self.placed_count = <int*>calloc_ints(num_envs)
        self.actions = <short*>malloc(sizeof(short) * num_envs)
        self.obs = <unsigned char*>calloc(num_envs, BASE_PLANES * PLANE_SIZE)
        self.mask = <unsigned char*>calloc(num_envs, NUM_ACTIONS)
        self.rewards = <float*>calloc(num_envs, sizeof(float))
        self.terminations = <unsigned char*>calloc(num_envs, 1)
        self.truncations = <unsigned char*>calloc(num_envs, 1)
        self.final_obs = <unsigned char*>calloc(num_envs, BASE_PLANES * PLANE_SIZE)
        self.final_mask = <unsigned char*>calloc(num_envs, NUM_ACTIONS)
        if (self.states == NULL or self.plies == NULL or self.history == NULL
                or self.occurrences == NULL or self.tags == NULL
                or self.rng == NULL
                or self.legal == NULL or self.legal_count == NULL or self.placed == NULL
                or self.placed_count == NULL or self.actions == NULL or self.obs == NULL
                or self.mask == NULL or self.rewards == NULL or self.terminations == NULL
                or self.truncations == NULL or self.final_obs == NULL
                or self.final_mask == NULL):
            raise MemoryError()
        self.seed(0)
        self.reset()

    def __dealloc__(self):
        free(self.states)
        free(self.plies)
        free(self.history)
        free(self.occurrences)
        free(self.tags)
        free(self.rng)
        free(self.legal)
        free(self.legal_count)
        free(self.placed)
        free(self.placed_count)
        free(self.actions)
        free(self.obs)
        free(self.mask)
        free(self.rewards)
        free(self.terminations)
        free(self.truncations)
        free(self.final_obs)
        free(self.final_mask)

    cdef int enter(self) except -1:
        # Claim the object for one call (the GIL makes the test and the set one step).
        if self.states == NULL:
            raise RuntimeError("VectorCore is not initialised")
        if self.busy:
            raise ConcurrentUseError(
                "this VectorEnv is in use by another thread (a step or reset is running): "
                "use one VectorEnv per thread, or a lock"
            )
        self.busy = 1
        return 0

    def outputs(self):
        """(observations, masks, rewards, terminations, truncations) as read-only
        memoryviews of the core's own buffers, overwritten by every reset and step."""
        if self.states == NULL:
            raise RuntimeError("VectorCore is not initialised")
        return (
            memoryview(_Output.make(self, self.obs, BASE_PLANES * PLANE_SIZE, b"B", 1)),
            memoryview(_Output.make(self, self.mask, NUM_ACTIONS, b"B", 1)),
            memoryview(_Output.make(self, self.rewards, 0, b"f", sizeof(float))),
            memoryview(_Output.make(self, self.terminations, 0, b"B", 1)),
            memoryview(_Output.make(self, self.truncations, 0, b"B", 1)),
        )

    def finals(self):
        """(final observations, final masks) as read-only memoryviews of the core's own
        buffers, shaped like the observations and masks: row i holds the last position
        of the game that ended in env i most recently (zeros after reset()), so a row is
        fresh only where the last step's termination or truncation flag is set."""
        if self.states == NULL:
            raise RuntimeError("VectorCore is not initialised")
        return (
            memoryview(_Output.make(self, self.final_obs, BASE_PLANES * PLANE_SIZE, b"B", 1)),
            memoryview(_Output.make(self, self.final_mask, NUM_ACTIONS, b"B", 1)),
        )

    def seed(self, unsigned long long seed):
        """Restart every environment's random stream from seed."""
        cdef unsigned long long state = seed
        cdef int i
        self.enter()
        for i in range(self.num_envs):
            self.rng[i] = splitmix_next(&state) | 1     # xorshift needs a nonzero state
        self.busy = 0

    cdef int refresh_legal(self, int i, bint* checked) noexcept nogil:
        # Clear game i's old mask entries, then list and mark its legal actions; *checked
        # gets whether its side to move is in check.
        cdef short* legal = self.legal + i * MAX_MOVES
        cdef unsigned char* mask = self.mask + <size_t>i * NUM_ACTIONS
        cdef int j, n
        for j in range(self.legal_count[i]):
            mask[legal[j]] = 0
        n = mark_legal_actions(&self.states[i], legal, mask, checked)
        self.legal_count[i] = n
        return n

    cdef void write_planes(self, int i) noexcept nogil:
        # Observation of game i from its state and history.
        cdef unsigned char* out = self.obs + <size_t>i * BASE_PLANES * PLANE_SIZE
        cdef const PlyRecord* now = self.history + <size_t>i * (self.max_plies + 1) + self.plies[i]
        self.placed_count[i] = move_piece_planes(&self.states[i], self.states[i].side, out,
                                                 self.placed + 32 * i, self.placed_count[i])
        write_counter_planes(out, self.occurrences[i] - 1, <int>min(now.clock, 255))

    cdef void reset_one(self, int i) noexcept nogil:
        cdef bint checked
        self.states[i] = self.start
        self.history[<size_t>i * (self.max_plies + 1)] = self.start_ply
        self.tags[<size_t>i * 2 * self.lane] = <unsigned int>self.start_ply.key
        self.plies[i] = 0
        self.occurrences[i] = 1
        self.refresh_legal(i, &checked)
        self.write_planes(i)

    cdef void step_one(self, int i, int a) noexcept nogil:
        # Play action a in game i, extend its history with Board.push's push_ply, judge the end.
        cdef BoardState* b = &self.states[i]
        cdef PlyRecord* history = self.history + <size_t>i * (self.max_plies + 1)
        cdef unsigned int* tags = self.tags + <size_t>i * 2 * self.lane
        cdef int mv = action_to_move(a, b.side), verdict, legal_count, n = self.plies[i]
        cdef bint checked
        push_ply(b, history, n, mv)    # the history push Board.push makes
        tags[((n + 1) & 1) * self.lane + ((n + 1) >> 1)] = <unsigned int>history[n + 1].key
        n += 1
        self.plies[i] = n
        self.occurrences[i] = occurrences(history, tags, self.lane, n)
        legal_count = self.refresh_legal(i, &checked)
        history[n].check = checked     # the generator's in_check(b, b.side)
        verdict = judge_end(b, history, n, legal_count, self.occurrences[i], self.max_plies,
                            self.chinese)
        self.rewards[i] = (1.0 if verdict == MOVER_WINS else
                           -1.0 if verdict == MOVER_LOSES else 0.0)
        self.terminations[i] = verdict != ONGOING and verdict != TRUNCATED
        self.truncations[i] = verdict == TRUNCATED
        self.write_planes(i)
        if verdict != ONGOING:
            # Keep the finished game's planes and mask (those of the position it ended
            # in), then restart it: reset_one rewrites both rows from its own lists.
            memcpy(self.final_obs + <size_t>i * BASE_PLANES * PLANE_SIZE,
                   self.obs + <size_t>i * BASE_PLANES * PLANE_SIZE, BASE_PLANES * PLANE_SIZE)
            memcpy(self.final_mask + <size_t>i * NUM_ACTIONS,
                   self.mask + <size_t>i * NUM_ACTIONS, NUM_ACTIONS)
            self.reset_one(i)

    def reset(self):
        """Every game back to the start position; rewards and flags cleared."""
        cdef int i
        self.enter()
        with nogil:
            for i in range(self.num_envs):
                self.legal_count[i] = 0
                self.placed_count[i] = 0
                memset(self.mask + <size_t>i * NUM_ACTIONS, 0, NUM_ACTIONS)
                memset(self.obs + <size_t>i * BASE_PLANES * PLANE_SIZE, 0,
                       BASE_PLANES * PLANE_SIZE)
                memset(self.final_obs + <size_t>i * BASE_PLANES * PLANE_SIZE, 0,
                       BASE_PLANES * PLANE_SIZE)
                memset(self.final_mask + <size_t>i * NUM_ACTIONS, 0, NUM_ACTIONS)
                self.reset_one(i)
                self.rewards[i] = 0
                self.terminations[i] = 0
                self.truncations[i] = 0
        self.busy = 0

    cdef int copy_actions(self, const long long[::1] actions) noexcept nogil:
        # Read each of the caller's actions once into self.actions, checking it against
        # the game's legal list; returns the first game whose action is not legal
        # (its value kept in self.rejected) or -1. Only the copy is ever played, so a
        # caller (or another process) rewriting the buffer meanwhile changes nothing.
        cdef int i
        cdef long long a
        for i in range(self.num_envs):
            a = actions[i]
            if not self.is_legal_action(i, a):
                self.rejected = a
                return i
            self.actions[i] = <short>a
        return -1

    def first_illegal(self, const long long[::1] actions not None):
        """Index of the first game whose action is not legal, or -1 (nothing changes)."""
        cdef int bad
        if actions.shape[0] != self.num_envs:
            raise ValueError(f"expected {self.num_envs} actions, got {actions.shape[0]}")
        self.enter()
        with nogil:
            bad = self.copy_actions(actions)
        self.busy = 0
        return bad

    @property
    def rejected_action(self):
        """The action value step() or first_illegal() last refused, as it read it."""
        return self.rejected

    cdef bint is_legal_action(self, int i, long long a) noexcept nogil:
        # Is a among game i's legal actions? The list (256 bytes a game) stays in cache
        # where the masks (2 kB a game) would not.
        cdef const short* legal = self.legal + i * MAX_MOVES
        cdef int j
        if a < 0 or a >= NUM_ACTIONS:
            return 0
        for j in range(self.legal_count[i]):
            if legal[j] == a:
                return 1
        return 0

    def step(self, const long long[::1] actions not None):
        """Play actions[i] in game i; returns the first illegal index (and plays nothing) or -1.

        The actions are copied and checked first; only the checked copy is played.
        """
        cdef int i, bad
        if actions.shape[0] != self.num_envs:
            raise ValueError(f"expected {self.num_envs} actions, got {actions.shape[0]}")
        self.enter()
        with nogil:
            bad = self.copy_actions(actions)
            if bad < 0:
                for i in range(self.num_envs):
                    self.step_one(i, self.actions[i])
        self.busy = 0
        return bad

    def sample_legal(self, long long[::1] out not None):
        """Write a uniformly random legal action of each game into out."""
        cdef int i, n
        cdef unsigned long long r
        if out.shape[0] != self.num_envs:
            raise ValueError(f"expected room for {self.num_envs} actions, got {out.shape[0]}")
        self.enter()
        with nogil:
            for i in range(self.num_envs):
                n = self.legal_count[i]
                r = next_random(&self.rng[i]) >> 32
                out[i] = self.legal[i * MAX_MOVES + <int>((r * <unsigned long long>n) >> 32)]
        self.busy = 0

    def board(self, int i):
        """A copy of game i's position as a core Board (its history starts there)."""
        if not 0 <= i < self.num_envs:
            raise IndexError(f"env index {i} out of range 0..{self.num_envs - 1}")
        cdef Board out
        self.enter()
        try:
            out = Board.__new__(Board)
            out.st = self.states[i]
            out._reset_history(self.history[<size_t>i * (self.max_plies + 1) + self.plies[i]].clock)
        finally:
            self.busy = 0
        return out

    def counters(self, int i):
        """(plies played, plies since the last capture) of game i."""
        if not 0 <= i < self.num_envs:
            raise IndexError(f"env index {i} out of range 0..{self.num_envs - 1}")
        cdef int plies
        cdef long long clock
        self.enter()
        plies = self.plies[i]
        clock = self.history[<size_t>i * (self.max_plies + 1) + plies].clock
        self.busy = 0
        return plies, clock


cdef class _Output:
    # One of VectorCore's output buffers through the buffer protocol, read-only: the
    # memoryview holds this object, which holds the VectorCore, so the memory stays
    # valid, and no consumer (NumPy's setflags(write=True) included) can write to it.
    cdef VectorCore owner
    cdef void* buf
    cdef bytes fmt
    cdef Py_ssize_t itemsize
    cdef int ndim
    cdef Py_ssize_t shape[2]
    cdef Py_ssize_t strides[2]

    @staticmethod
    cdef _Output make(VectorCore owner, void* buf, Py_ssize_t width, bytes fmt,
                      Py_ssize_t itemsize):
        # width 0: one item per environment (N,); else (N, width).
        cdef _Output out = _Output.__new__(_Output)
        out.owner = owner
        out.buf = buf
        out.fmt = fmt
        out.itemsize = itemsize
        out.shape[0] = owner.num_envs
        if width:
            out.ndim = 2
            out.shape[1] = width
            out.strides[0] = width * itemsize
            out.strides[1] = itemsize
        else:
            out.ndim = 1
            out.strides[0] = itemsize
        return out

    def __getbuffer__(self, Py_buffer* view, int flags):
        if flags & PyBUF_WRITABLE:
            raise BufferError("the environment's outputs are read-only; copy them to edit")
        view.buf = self.buf
        view.obj = self
        view.len = self.shape[0] * self.strides[0]
        view.readonly = 1
        view.itemsize = self.itemsize
        view.format = NULL
        if flags & PyBUF_FORMAT:
            view.format = self.fmt
        view.ndim = self.ndim
        view.shape = self.shape
        view.strides = self.strides
        view.suboffsets = NULL
        view.internal = NULL

    def __releasebuffer__(self, Py_buffer* view):
        pass


cdef inline int* calloc_ints(int n) noexcept:
    cdef int* p = <int*>malloc(sizeof(int) * n)
    if p != NULL:
        memset(p, 0, sizeof(int) * n)
    return p


def observe_one(Board board not None, long long clock, int history, int view,
                unsigned char[::1] planes not None, unsigned char[::1] mask):
    """encode_batch and legal_mask_batch for one board, in one call (the AEC env's path).

    planes must hold (16 + 14 * history) * 90 bytes; mask, unless None, NUM_ACTIONS
    bytes, which are cleared and then marked when view is the side to move.
    """
    cdef short actions[MAX_MOVES]
    cdef int records[64]
    cdef BoardState st
    cdef int count, reps, k
    if not 0 <= history <= 64 or not -1 <= view <= 1:
        raise ValueError(f"bad history {history} or view {view}")
    if planes.shape[0] != (BASE_PLANES + PIECE_PLANES * history) * PLANE_SIZE:
        raise ValueError("planes buffer has the wrong size")
    if mask is not None and mask.shape[0] != NUM_ACTIONS:
        raise ValueError("mask buffer has the wrong size")
    gather(board, history, &st, records, &count, &reps)
    encode_one(&st, records, count, history, <int>min(clock, 255), reps, view, &planes[0])
    if mask is not None:
        memset(&mask[0], 0, NUM_ACTIONS)
        if view < 0 or view == board.st.side:
            count = legal_actions(&board.st, actions)
            for k in range(count):
                mask[actions[k]] = 1

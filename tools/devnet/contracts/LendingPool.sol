// SPDX-License-Identifier: MIT
pragma solidity ^0.8.24;

interface IERC20 {
    function balanceOf(address owner) external view returns (uint256);
    function transfer(address to, uint256 amount) external returns (bool);
    function transferFrom(address from, address to, uint256 amount) external returns (bool);
    function approve(address spender, uint256 amount) external returns (bool);
}

/// The money market the devnet's leveraged-yield vaults loop through (CONTRACTS.md#leveraged-yield).
/// Rates follow utilisation; balances do not accrue interest. `swap` converts at the oracle price from the
/// pool's own float: the devnet's stand-in for the market a vault trades its borrowed token on.
contract LendingPool {
    uint256 internal constant WAD = 1e18;
    uint256 internal constant RAY = 1e27;
    uint256 internal constant BPS = 10_000;

    struct Reserve {
        bool listed;
        uint8 decimals;
        uint256 priceWad;
        uint256 baseRateRay;
        uint256 slopeRay;
        uint256 reserveFactorBps;
        uint256 totalSupplied;
        uint256 totalBorrowed;
    }

    address public immutable owner;
    /// Debt may reach this share of collateral value; past the liquidation threshold the health factor is below 1.
    uint256 public immutable maxLtvBps;
    uint256 public immutable liquidationThresholdBps;

    mapping(address => Reserve) public reserves;
    address[] public assets;
    mapping(address => mapping(address => uint256)) public supplied;
    mapping(address => mapping(address => uint256)) public borrowed;

    event Supplied(address indexed asset, address indexed onBehalfOf, uint256 amount);
    event Withdrawn(address indexed asset, address indexed user, address to, uint256 amount);
    event Borrowed(address indexed asset, address indexed user, uint256 amount);
    event Repaid(address indexed asset, address indexed onBehalfOf, uint256 amount);
    event Swapped(address indexed tokenIn, address indexed tokenOut, uint256 amountIn, uint256 amountOut, address to);

    error NotListed(address asset);
    error Unhealthy(uint256 ltvBps);
    error InsufficientLiquidity(address asset);
    error InsufficientBalance(address asset);

    constructor(uint256 maxLtvBps_, uint256 liquidationThresholdBps_) {
        require(maxLtvBps_ < liquidationThresholdBps_ && liquidationThresholdBps_ < BPS, "LendingPool: thresholds");
        owner = msg.sender;
        maxLtvBps = maxLtvBps_;
        liquidationThresholdBps = liquidationThresholdBps_;
    }

    function list(address asset, uint8 decimals, uint256 priceWad, uint256 baseRateRay, uint256 slopeRay, uint256 reserveFactorBps)
        external
    {
        require(msg.sender == owner, "LendingPool: only the owner");
        if (!reserves[asset].listed) assets.push(asset);
        Reserve storage r = reserves[asset];
        r.listed = true;
        r.decimals = decimals;
        r.priceWad = priceWad;
        r.baseRateRay = baseRateRay;
        r.slopeRay = slopeRay;
        r.reserveFactorBps = reserveFactorBps;
    }

    function supply(address asset, uint256 amount, address onBehalfOf) external {
        Reserve storage r = _listed(asset);
        IERC20(asset).transferFrom(msg.sender, address(this), amount);
        supplied[asset][onBehalfOf] += amount;
        r.totalSupplied += amount;
        emit Supplied(asset, onBehalfOf, amount);
    }

    function withdraw(address asset, uint256 amount, address to) external {
        Reserve storage r = _listed(asset);
        if (supplied[asset][msg.sender] < amount) revert InsufficientBalance(asset);
        if (r.totalSupplied - r.totalBorrowed < amount) revert InsufficientLiquidity(asset);
        supplied[asset][msg.sender] -= amount;
        r.totalSupplied -= amount;
        _requireLtv(msg.sender, maxLtvBps);
        IERC20(asset).transfer(to, amount);
        emit Withdrawn(asset, msg.sender, to, amount);
    }

    function borrow(address asset, uint256 amount) external {
        Reserve storage r = _listed(asset);
        if (r.totalSupplied - r.totalBorrowed < amount) revert InsufficientLiquidity(asset);
        borrowed[asset][msg.sender] += amount;
        r.totalBorrowed += amount;
        _requireLtv(msg.sender, maxLtvBps);
        IERC20(asset).transfer(msg.sender, amount);
        emit Borrowed(asset, msg.sender, amount);
    }

    function repay(address asset, uint256 amount, address onBehalfOf) external returns (uint256 repaid) {
        Reserve storage r = _listed(asset);
        uint256 owed = borrowed[asset][onBehalfOf];
        repaid = amount < owed ? amount : owed;
        IERC20(asset).transferFrom(msg.sender, address(this), repaid);
        borrowed[asset][onBehalfOf] = owed - repaid;
        r.totalBorrowed -= repaid;
        emit Repaid(asset, onBehalfOf, repaid);
    }

    function swap(address tokenIn, address tokenOut, uint256 amountIn, address to) external returns (uint256 amountOut) {
        amountOut = convert(tokenIn, tokenOut, amountIn);
        Reserve storage out = _listed(tokenOut);
        uint256 float = IERC20(tokenOut).balanceOf(address(this)) - (out.totalSupplied - out.totalBorrowed);
        if (float < amountOut) revert InsufficientLiquidity(tokenOut);
        IERC20(tokenIn).transferFrom(msg.sender, address(this), amountIn);
        IERC20(tokenOut).transfer(to, amountOut);
        emit Swapped(tokenIn, tokenOut, amountIn, amountOut, to);
    }

    /// `amount` of `from` in units of `to`, at the oracle prices, rounded down.
    function convert(address from, address to, uint256 amount) public view returns (uint256) {
        Reserve storage f = _listed(from);
        Reserve storage t = _listed(to);
        return (amount * f.priceWad * 10 ** t.decimals) / (t.priceWad * 10 ** f.decimals);
    }

    function valueOf(address asset, uint256 amount) public view returns (uint256) {
        Reserve storage r = reserves[asset];
        return (amount * r.priceWad) / 10 ** r.decimals;
    }

    function utilisationRay(address asset) public view returns (uint256) {
        Reserve storage r = reserves[asset];
        return r.totalSupplied == 0 ? 0 : (r.totalBorrowed * RAY) / r.totalSupplied;
    }

    /// Yearly rates, RAY: borrow = base + slope × utilisation; supply = borrow × utilisation × (1 − reserve factor).
    function rates(address asset) public view returns (uint256 supplyRateRay, uint256 borrowRateRay) {
        Reserve storage r = _listed(asset);
        uint256 u = utilisationRay(asset);
        borrowRateRay = r.baseRateRay + (r.slopeRay * u) / RAY;
        supplyRateRay = (((borrowRateRay * u) / RAY) * (BPS - r.reserveFactorBps)) / BPS;
    }

    /// Values in USD, WAD; the health factor is type(uint256).max without debt.
    function accountData(address user)
        public
        view
        returns (uint256 collateralValue, uint256 debtValue, uint256 ltvBps, uint256 healthFactorWad)
    {
        for (uint256 i = 0; i < assets.length; i++) {
            address asset = assets[i];
            collateralValue += valueOf(asset, supplied[asset][user]);
            debtValue += valueOf(asset, borrowed[asset][user]);
        }
        if (debtValue == 0) return (collateralValue, 0, 0, type(uint256).max);
        ltvBps = collateralValue == 0 ? type(uint256).max : (debtValue * BPS) / collateralValue;
        healthFactorWad = (collateralValue * liquidationThresholdBps * WAD) / (debtValue * BPS);
    }

    function _requireLtv(address user, uint256 limitBps) internal view {
        (uint256 collateralValue, uint256 debtValue, uint256 ltvBps,) = accountData(user);
        if (debtValue * BPS > collateralValue * limitBps) revert Unhealthy(ltvBps);
    }

    function _listed(address asset) internal view returns (Reserve storage r) {
        r = reserves[asset];
        if (!r.listed) revert NotListed(asset);
    }
}

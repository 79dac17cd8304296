// SPDX-License-Identifier: MIT
pragma solidity ^0.8.24;

import {ERC20} from "./ERC20.sol";
import {IERC20, LendingPool} from "./LendingPool.sol";

/// An ERC-4626 leveraged-yield vault: its address is its share token (18 decimals). Deposits are supplied to the
/// pool and looped to the target loan-to-value (borrow, swap to the asset, supply); withdrawals unwind in proportion.
contract LeverageVault is ERC20 {
    uint256 internal constant BPS = 10_000;
    uint256 internal constant MAX_STEPS = 32;

    uint8 public constant decimals = 18;

    address public immutable asset;
    address public immutable borrowToken;
    LendingPool public immutable pool;
    uint256 public immutable targetLtvBps;
    uint256 internal immutable offset;

    event Deposit(address indexed sender, address indexed owner, uint256 assets, uint256 shares);
    event Withdraw(address indexed sender, address indexed receiver, address indexed owner, uint256 assets, uint256 shares);

    error ZeroAmount();
    error ExceedsBalance(uint256 shares, uint256 balance);

    constructor(string memory name_, string memory symbol_, address asset_, uint8 assetDecimals, address borrowToken_, LendingPool pool_, uint256 targetLtvBps_)
        ERC20(name_, symbol_)
    {
        require(targetLtvBps_ < pool_.maxLtvBps(), "LeverageVault: target above the pool's maximum");
        asset = asset_;
        borrowToken = borrowToken_;
        pool = pool_;
        targetLtvBps = targetLtvBps_;
        offset = 10 ** (18 - assetDecimals);
        IERC20(asset_).approve(address(pool_), type(uint256).max);
        IERC20(borrowToken_).approve(address(pool_), type(uint256).max);
    }

    // --- ERC-4626 ---

    /// Collateral less debt (in asset units) plus what the vault holds idle.
    function totalAssets() public view returns (uint256) {
        (uint256 collateral, uint256 debt,,, uint256 idle) = position();
        return collateral + idle > debt ? collateral + idle - debt : 0;
    }

    /// Collateral, debt and idle in asset units; ltv in basis points; health factor WAD.
    function position() public view returns (uint256 collateral, uint256 debt, uint256 ltvBps, uint256 healthFactorWad, uint256 idle) {
        collateral = pool.supplied(asset, address(this));
        debt = pool.convert(borrowToken, asset, pool.borrowed(borrowToken, address(this)));
        (,, ltvBps, healthFactorWad) = pool.accountData(address(this));
        idle = IERC20(asset).balanceOf(address(this));
    }

    function convertToShares(uint256 assets) public view returns (uint256) {
        return (assets * (totalSupply + offset)) / (totalAssets() + 1);
    }

    function convertToAssets(uint256 shares) public view returns (uint256) {
        return (shares * (totalAssets() + 1)) / (totalSupply + offset);
    }

    function previewDeposit(uint256 assets) public view returns (uint256) {
        return convertToShares(assets);
    }

    function previewMint(uint256 shares) public view returns (uint256) {
        return _divUp(shares * (totalAssets() + 1), totalSupply + offset);
    }

    function previewWithdraw(uint256 assets) public view returns (uint256) {
        return _divUp(assets * (totalSupply + offset), totalAssets() + 1);
    }

    function previewRedeem(uint256 shares) public view returns (uint256) {
        return convertToAssets(shares);
    }

    function maxDeposit(address) external pure returns (uint256) {
        return type(uint256).max;
    }

    function maxMint(address) external pure returns (uint256) {
        return type(uint256).max;
    }

    function maxWithdraw(address owner) external view returns (uint256) {
        return convertToAssets(balanceOf[owner]);
    }

    function maxRedeem(address owner) external view returns (uint256) {
        return balanceOf[owner];
    }

    function deposit(uint256 assets, address receiver) external returns (uint256 shares) {
        shares = previewDeposit(assets);
        _enter(assets, shares, receiver);
    }

    function mint(uint256 shares, address receiver) external returns (uint256 assets) {
        assets = previewMint(shares);
        _enter(assets, shares, receiver);
    }

    function withdraw(uint256 assets, address receiver, address owner) external returns (uint256 shares) {
        shares = previewWithdraw(assets);
        _exit(assets, shares, receiver, owner);
    }

    function redeem(uint256 shares, address receiver, address owner) external returns (uint256 assets) {
        assets = previewRedeem(shares);
        _exit(assets, shares, receiver, owner);
    }

    // --- looping ---

    function _enter(uint256 assets, uint256 shares, address receiver) internal {
        if (assets == 0 || shares == 0) revert ZeroAmount();
        IERC20(asset).transferFrom(msg.sender, address(this), assets);
        pool.supply(asset, IERC20(asset).balanceOf(address(this)), address(this));
        _lever();
        _mint(receiver, shares);
        emit Deposit(msg.sender, receiver, assets, shares);
    }

    function _exit(uint256 assets, uint256 shares, address receiver, address owner) internal {
        if (assets == 0 || shares == 0) revert ZeroAmount();
        if (balanceOf[owner] < shares) revert ExceedsBalance(shares, balanceOf[owner]);
        if (msg.sender != owner) _spendAllowance(owner, shares);
        bool last = shares == totalSupply;
        _burn(owner, shares);
        uint256 equityAfter = totalAssets() - assets;
        _unwind(last ? 0 : _debtFor(equityAfter));
        uint256 collateral = pool.supplied(asset, address(this));
        if (last && assets > collateral) assets = collateral;
        pool.withdraw(asset, assets, receiver);
        emit Withdraw(msg.sender, receiver, owner, assets, shares);
    }

    /// Debt (asset units) that puts `equity` at the target loan-to-value: equity × L / (1 − L).
    function _debtFor(uint256 equity) internal view returns (uint256) {
        return (equity * targetLtvBps) / (BPS - targetLtvBps);
    }

    /// Borrow up to the pool's limit each step, never past the target debt: a few steps reach it exactly.
    function _lever() internal {
        uint256 limitBps = pool.maxLtvBps() - 1;
        for (uint256 i = 0; i < MAX_STEPS; i++) {
            (uint256 collateral, uint256 debt,,,) = position();
            uint256 target = _debtFor(collateral - debt);
            if (debt >= target) return;
            uint256 room = (collateral * limitBps) / BPS - debt;
            uint256 step = room < target - debt ? room : target - debt;
            uint256 borrowAmount = pool.convert(asset, borrowToken, step);
            if (borrowAmount == 0) return;
            pool.borrow(borrowToken, borrowAmount);
            uint256 bought = pool.swap(borrowToken, asset, borrowAmount, address(this));
            pool.supply(asset, bought, address(this));
        }
    }

    /// Withdraw what the pool's limit frees, swap it to the borrowed token and repay, until the debt is `targetDebt`.
    function _unwind(uint256 targetDebt) internal {
        uint256 limitBps = pool.maxLtvBps() - 1;
        for (uint256 i = 0; i < MAX_STEPS; i++) {
            uint256 owed = pool.borrowed(borrowToken, address(this));
            uint256 targetOwed = pool.convert(asset, borrowToken, targetDebt);
            if (owed <= targetOwed) return;
            (uint256 collateral, uint256 debt,,,) = position();
            uint256 locked = _divUp(debt * BPS, limitBps);
            uint256 free = collateral > locked ? collateral - locked : 0;
            uint256 needed = pool.convert(borrowToken, asset, owed - targetOwed) + 1;
            uint256 take = free < needed ? free : needed;
            if (take == 0) return;
            pool.withdraw(asset, take, address(this));
            uint256 got = pool.swap(asset, borrowToken, take, address(this));
            pool.repay(borrowToken, got < owed - targetOwed ? got : owed - targetOwed, address(this));
        }
    }

    function _divUp(uint256 a, uint256 b) internal pure returns (uint256) {
        return a == 0 ? 0 : (a - 1) / b + 1;
    }
}

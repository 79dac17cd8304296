// SPDX-License-Identifier: MIT
pragma solidity ^0.8.24;

/// The intent tuple of the hub-and-spoke intent protocol (shared/reference/protocol-facts.md).
struct Intent {
    uint256 intentId;
    address creator;
    address inputToken;
    address outputToken;
    uint256 inputAmount;
    uint256 minOutputAmount;
    uint256 deadline;
    bool allowPartialFill;
    uint256 srcChain;
    uint256 dstChain;
    bytes srcAddress;
    bytes dstAddress;
    address solver;
    bytes data;
}

interface IERC20 {
    function transfer(address to, uint256 amount) external returns (bool);
    function transferFrom(address from, address to, uint256 amount) external returns (bool);
    function approve(address spender, uint256 amount) external returns (bool);
    function balanceOf(address owner) external view returns (uint256);
    function allowance(address owner, address spender) external view returns (uint256);
}

// SPDX-License-Identifier: MIT
pragma solidity ^0.8.24;

import "./IntentTypes.sol";

/// A chain's connection: every cross-chain message leaves as an event the relayer reads,
/// numbered (`nonce`, the relay's connection sequence number) so it is delivered once.
contract Connection {
    uint256 public immutable chainId;
    uint256 public nonce;

    event Message(uint256 indexed srcChainId, uint256 indexed dstChainId, uint256 nonce, address sender, bytes dstAddress, bytes payload);

    constructor(uint256 relayChainId) {
        chainId = relayChainId;
    }

    function sendMessage(uint256 dstChainId, bytes calldata dstAddress, bytes calldata payload) external {
        emit Message(chainId, dstChainId, nonce++, msg.sender, dstAddress, payload);
    }
}

/// The spoke's asset manager: holds deposits and tells the hub through the connection,
/// where the deposit is credited to the depositor's own hub wallet and `data` (the hub
/// calls) runs from it. It releases tokens when the hub's entry says so (a delivery or a
/// refund), through the relayer, each hub message once.
contract AssetManager {
    Connection public immutable connection;
    uint256 public immutable hubChainId;
    /// The hub contract that receives deposits and alone may order releases.
    address public immutable hubEntry;
    address public immutable relayer;
    mapping(uint256 => mapping(uint256 => bool)) public processed;

    event Deposited(address indexed token, address indexed from, bytes to, uint256 amount);
    event Released(uint256 indexed srcChainId, uint256 indexed connSn, address token, address to, uint256 amount);

    error Unauthorized();
    error MessageAlreadyProcessed();
    error InvalidAmount();
    error TransferFailed();

    constructor(Connection connection_, uint256 hubChainId_, address hubEntry_, address relayer_) {
        connection = connection_;
        hubChainId = hubChainId_;
        hubEntry = hubEntry_;
        relayer = relayer_;
    }

    function transfer(address token, bytes calldata to, uint256 amount, bytes calldata data) external payable {
        if (amount == 0) revert InvalidAmount();
        if (token == address(0)) {
            if (msg.value != amount) revert InvalidAmount();
        } else {
            if (msg.value != 0) revert InvalidAmount();
            if (!IERC20(token).transferFrom(msg.sender, address(this), amount)) revert TransferFailed();
        }
        emit Deposited(token, msg.sender, to, amount);
        connection.sendMessage(hubChainId, abi.encodePacked(hubEntry), abi.encode(token, msg.sender, to, amount, data));
    }

    /// A hub message the relayer delivers: `abi.encode(token, to, amount)` from the hub entry.
    function recvMessage(uint256 srcChainId, address srcAddress, uint256 connSn, bytes calldata payload) external {
        if (msg.sender != relayer || srcChainId != hubChainId || srcAddress != hubEntry) revert Unauthorized();
        if (processed[srcChainId][connSn]) revert MessageAlreadyProcessed();
        processed[srcChainId][connSn] = true;
        (address token, address to, uint256 amount) = abi.decode(payload, (address, address, uint256));
        if (token == address(0)) {
            (bool ok, ) = to.call{value: amount}("");
            if (!ok) revert TransferFailed();
        } else if (!IERC20(token).transfer(to, amount)) {
            revert TransferFailed();
        }
        emit Released(srcChainId, connSn, token, to, amount);
    }

    /// The devnet's float of native tokens, for deliveries before any deposit.
    receive() external payable {}
}

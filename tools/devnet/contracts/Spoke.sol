// SPDX-License-Identifier: MIT
pragma solidity ^0.8.24;

import "./IntentTypes.sol";

/// The spoke's connection: every cross-chain message leaves as an event the relayer reads.
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

/// The spoke's asset manager: holds deposits and asks the connection to tell the hub,
/// where the deposit is credited to `to` (the user's hub wallet) and `data` (the hub
/// calls) is run by it.
contract AssetManager {
    Connection public immutable connection;
    uint256 public immutable hubChainId;
    bytes public hubAddress;

    event Deposited(address indexed token, address indexed from, bytes to, uint256 amount);

    constructor(Connection connection_, uint256 hubChainId_, bytes memory hubAddress_) {
        connection = connection_;
        hubChainId = hubChainId_;
        hubAddress = hubAddress_;
    }

    function transfer(address token, bytes calldata to, uint256 amount, bytes calldata data) external payable {
        require(amount > 0, "AssetManager: amount must be positive");
        if (token == address(0)) {
            require(msg.value == amount, "AssetManager: value must equal amount");
        } else {
            require(msg.value == 0, "AssetManager: no value with a token");
            require(IERC20(token).transferFrom(msg.sender, address(this), amount), "AssetManager: deposit failed");
        }
        emit Deposited(token, msg.sender, to, amount);
        connection.sendMessage(hubChainId, hubAddress, abi.encode(token, msg.sender, to, amount, data));
    }
}

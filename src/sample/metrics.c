// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The metric table: names and labels of every per-interface counter, in enum order. The CSV
 * module and the views map through it; nothing else spells these names. [any]
 */
#include "linerate/core/common.h"
#include "linerate/collect/metrics.h"

static const struct lr_metric_info lr_metrics[LR_M__COUNT] = {
	[LR_M_RX_PACKETS] = {"rx_packets", "rx pkts"},
	[LR_M_TX_PACKETS] = {"tx_packets", "tx pkts"},
	[LR_M_RX_BYTES] = {"rx_bytes", "rx bytes"},
	[LR_M_TX_BYTES] = {"tx_bytes", "tx bytes"},
	[LR_M_RX_ERRORS] = {"rx_errors", "rx errors"},
	[LR_M_TX_ERRORS] = {"tx_errors", "tx errors"},
	[LR_M_RX_DROPPED] = {"rx_dropped", "rx dropped"},
	[LR_M_TX_DROPPED] = {"tx_dropped", "tx dropped"},
	[LR_M_MULTICAST] = {"multicast", "multicast"},
	[LR_M_COLLISIONS] = {"collisions", "collisions"},
	[LR_M_RX_LENGTH_ERRORS] = {"rx_length_errors", "rx length"},
	[LR_M_RX_OVER_ERRORS] = {"rx_over_errors", "rx over"},
	[LR_M_RX_CRC_ERRORS] = {"rx_crc_errors", "rx crc"},
	[LR_M_RX_FRAME_ERRORS] = {"rx_frame_errors", "rx frame"},
	[LR_M_RX_FIFO_ERRORS] = {"rx_fifo_errors", "rx fifo"},
	[LR_M_RX_MISSED_ERRORS] = {"rx_missed_errors", "rx missed"},
	[LR_M_TX_ABORTED_ERRORS] = {"tx_aborted_errors", "tx aborted"},
	[LR_M_TX_CARRIER_ERRORS] = {"tx_carrier_errors", "tx carrier"},
	[LR_M_TX_FIFO_ERRORS] = {"tx_fifo_errors", "tx fifo"},
	[LR_M_TX_HEARTBEAT_ERRORS] = {"tx_heartbeat_errors", "tx heartbeat"},
	[LR_M_TX_WINDOW_ERRORS] = {"tx_window_errors", "tx window"},
	[LR_M_RX_COMPRESSED] = {"rx_compressed", "rx compressed"},
	[LR_M_TX_COMPRESSED] = {"tx_compressed", "tx compressed"},
	[LR_M_RX_NOHANDLER] = {"rx_nohandler", "rx nohandler"},
	[LR_M_NIC_FIFO] = {"nic_fifo", "nic fifo"},
	[LR_M_NIC_DROP] = {"nic_drop", "nic drop"},
	[LR_M_NIC_ERROR] = {"nic_error", "nic error"},
	[LR_M_NIC_PAUSE] = {"nic_pause", "nic pause"},
};

const struct lr_metric_info *lr_metric_info(enum lr_metric m)
{
	return (unsigned)m < LR_M__COUNT ? &lr_metrics[m] : NULL;
}

-- AlterTable
ALTER TABLE "Auction" ADD COLUMN     "winnerBotName" TEXT;
